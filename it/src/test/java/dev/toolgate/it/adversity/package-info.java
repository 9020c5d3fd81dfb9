/**
 * The gateway when its surroundings misbehave: attempts outliving their lease, adapters that throw, the
 * journal's PostgreSQL refused, black-holed or restarted (docs/database-outage.md), and one adversarial
 * run with all of it at once.
 */
package dev.toolgate.it.adversity;
