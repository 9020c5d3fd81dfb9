/**
 * The peers: what a team would write instead of the gateway to make the same 1C invoice once per idempotency key
 * — a DBOS Transact workflow behind the JDK's HTTP server, and a Restate handler behind Restate's ingress. Each
 * runs as a process of its own, started by the benchmark, so its CPU is counted as the gateway's is. Benchmark
 * only: nothing here is part of the product.
 */
package dev.toolgate.benchmark.peers;
