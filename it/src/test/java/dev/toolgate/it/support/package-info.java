/**
 * What the suites stand on, none of it a test of the gateway: TestStack (PostgreSQL and the simulators,
 * once per test JVM, registered as a JUnit LauncherSessionListener), gateway processes and MicroSuite
 * (the WAR on Arquillian's Payara Micro), Agent and Credentials (principals calling over HTTP), clients
 * that go past the gateway (OneCDirect, YooKassaDirect, RawHttp), fault tools (TcpProxy, HostileBodies),
 * the application servers the EAR is deployed to, and the console suites' Keycloak and Browser. TcpProxyIT
 * tests the proxy itself, KeycloakBrowserIT the Keycloak and the browser.
 */
package dev.toolgate.it.support;
