package io.basalt.server.security;

import java.security.Principal;
import java.util.regex.Pattern;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.security.auth.x500.X500Principal;

/**
 * Which certificates of the cluster CA belong to cluster members ({@code basalt.member.tls.subject}): the
 * subject, in RFC 2253 form, must match a pattern in full. The CA also issues ordinary clients their
 * certificates, so being signed by it is not enough. {@link #ANY} (no pattern) admits any verified peer:
 * then the cluster secret alone decides membership.
 */
public final class MemberCertificateRule {
  public static final MemberCertificateRule ANY = new MemberCertificateRule(null);

  private final Pattern subject;

  private MemberCertificateRule(Pattern subject) {
    this.subject = subject;
  }

  /** From the setting; empty means {@link #ANY}. */
  public static MemberCertificateRule of(String pattern) {
    return pattern == null || pattern.isEmpty() ? ANY : new MemberCertificateRule(Pattern.compile(pattern));
  }

  /** Whether a pattern is set (membership then needs the certificate as well as the secret). */
  public boolean restricts() {
    return subject != null;
  }

  /** Whether a verified peer subject (RFC 2253, as {@link X500Principal#getName()}) is a member's; null: no. */
  public boolean matches(String verifiedSubject) {
    if (verifiedSubject == null) {
      return false;
    }
    return subject == null || subject.matcher(verifiedSubject).matches();
  }

  /** Whether the peer of a finished TLS handshake presented a verified certificate that matches. */
  public boolean matches(SSLSession session) {
    try {
      Principal peer = session.getPeerPrincipal();
      return matches(peer == null ? null : peer.getName());
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return subject == null ? "any certificate of the cluster CA" : "certificates whose subject matches " + subject;
  }
}
