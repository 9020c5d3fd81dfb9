/**
 * What an operation is, in the words every layer uses: its snapshot, states, event kinds and a refused request.
 * Values only, so the front doors can name them without reaching into storage. It imports nothing of ours.
 */
package dev.toolgate.operation;
