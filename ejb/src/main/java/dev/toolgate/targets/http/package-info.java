/**
 * The generic HTTP adapter (docs/targets.md): a target reached over HTTP that is
 * described by configuration, not code — request template, auth, an optional idempotency header,
 * a success rule, a classification table and a look-up template. It serves a catalog target in place
 * of its coded adapter when {@code toolgate.target.<system>.adapter=http}: e.g. 1C through an HTTP
 * service that looks up or creates the document under a lock on its side (the hardened 1C deployment).
 */
package dev.toolgate.targets.http;
