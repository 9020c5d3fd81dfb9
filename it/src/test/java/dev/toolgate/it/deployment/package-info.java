/** The EAR as users deploy it, on Payara Server 6 and WildFly 39, and the journal migrated by command. */
package dev.toolgate.it.deployment;
