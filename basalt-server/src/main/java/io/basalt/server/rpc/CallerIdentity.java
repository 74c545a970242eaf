package io.basalt.server.rpc;

import io.basalt.server.security.Authentication;
import java.net.InetAddress;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;

/**
 * Decides who a connection's caller is once its header arrived: the SASL identity if it authenticated (and
 * then the header may name another user only for a Kerberos user the {@code hadoop.proxyuser.*} rules let act
 * for it: a gateway's proxy user), else the CN of its verified client
 * certificate when certificates name users, else, with authentication required, an anonymous caller (only
 * reachable with the fallback setting; members keep their SIMPLE name), else the name it claims.
 */
final class CallerIdentity {
  private CallerIdentity() {}

  static Caller of(ConnectionHeader header, SaslServerHandler.Established sasl, Authentication auth, boolean member,
      String tlsPeer, InetAddress from) throws AccessDeniedException {
    String claimed = header.hasUserInfo() ? header.getUserInfo().getEffectiveUser() : "";
    if (sasl != null && sasl.user() != null) {
      if (!claimed.isEmpty() && !claimed.equals(sasl.user())) {
        // A token names its owner: acting for someone else with it is refused, as HBase refuses it.
        if (!sasl.kerberos()) {
          throw new AccessDeniedException("Authenticated user (" + sasl.user() + ") doesn't match what the client "
              + "claims to be (" + claimed + "); a token cannot act for another user");
        }
        auth.authorizeProxy(Caller.shortName(sasl.user()), claimed, from);
        return new Caller(claimed, member, tlsPeer, claimed, Caller.AuthMethod.PROXY);
      }
      return new Caller(claimed, member, tlsPeer, sasl.user(),
          sasl.kerberos() ? Caller.AuthMethod.KERBEROS : Caller.AuthMethod.TOKEN);
    }
    if (auth.certificateUsers() && tlsPeer != null) {
      return new Caller(claimed, member, tlsPeer, commonName(tlsPeer), Caller.AuthMethod.CERTIFICATE);
    }
    if (auth.required() && !member) {
      return new Caller(claimed, false, tlsPeer, null, Caller.AuthMethod.ANONYMOUS);
    }
    return new Caller(claimed, member, tlsPeer);
  }

  /** The CN of a certificate subject ({@code CN=alice,O=Example} gives {@code alice}), or the whole name. */
  static String commonName(String subject) {
    try {
      for (Rdn rdn : new LdapName(subject).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return rdn.getValue().toString();
        }
      }
    } catch (InvalidNameException e) {
      // not an X.500 name: use it whole
    }
    return subject;
  }
}
