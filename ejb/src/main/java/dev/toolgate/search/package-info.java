/** The read model people and agents look at: an operation's story, the console's search, the backlog. It only reads. */
package dev.toolgate.search;
