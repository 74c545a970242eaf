package io.basalt.server.rpc;

/**
 * Who is on the other end of a connection, as far as the transport has proven it: the user the client
 * claims (SIMPLE authentication: not verified), whether it proved knowledge of the cluster secret (a master
 * or region server of this cluster), and the subject of its TLS certificate when it presented a verified one.
 * Kerberos and token identities will be added here.
 */
public record Caller(String claimedUser, boolean clusterMember, String tlsPeer) {
  public static final Caller ANONYMOUS = new Caller("", false, null);

  public Caller withUser(String user) {
    return new Caller(user, clusterMember, tlsPeer);
  }
}
