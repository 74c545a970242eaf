/**
 * What the gateways share for security: how they reach a secured cluster and act for their users
 * ({@link io.basalt.gateway.security.ClusterAccess}: Kerberos login from the gateway's keytab, one proxy-user
 * connection per end user), TLS on their listeners ({@link io.basalt.gateway.security.ListenerTls}) and HTTP
 * SPNEGO ({@link io.basalt.gateway.security.SpnegoAuthenticator}). HBase's keys; nothing of Basalt's servers.
 */
package io.basalt.gateway.security;
