/**
 * The generic HTTP adapter (docs/targets.md): a target described by configuration, not code. Serves a catalog target
 * in place of its coded adapter when {@code toolgate.target.<system>.adapter=http} (e.g. a hardened 1C HTTP service).
 */
package dev.toolgate.targets.http;
