/** The request boundary: every bad or hostile input refused with a problem before anything is stored (docs/input.md). */
package dev.toolgate.it.input;
