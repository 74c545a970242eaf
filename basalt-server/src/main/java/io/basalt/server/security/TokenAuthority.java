package io.basalt.server.security;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.hbase.protobuf.generated.AuthenticationProtos;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;

/**
 * Issues and checks HBase authentication tokens: the identifier is HBase's
 * {@link AuthenticationTokenIdentifier} (user, key id, issue and expiry dates, sequence number, protobuf
 * behind a length), the password an HMAC of the identifier bytes under the signing key it names, so any
 * server holding the keys ({@link TokenKeys}) can check a token without having seen it issued. The service is
 * the cluster id, which is how HBase's client picks the token for a cluster.
 */
public final class TokenAuthority {
  private static final String HMAC = "HmacSHA256";

  /** A token as the client receives it (AuthenticationProtos.Token). */
  public record Token(byte[] identifier, byte[] password, String service) {}

  private final TokenKeys keys;
  private final Supplier<String> clusterId;
  private final LongSupplier clock;
  private final AtomicLong sequence = new AtomicLong();

  public TokenAuthority(TokenKeys keys, Supplier<String> clusterId, LongSupplier clock) {
    this.keys = keys;
    this.clusterId = clusterId;
    this.clock = clock;
  }

  /** A token for {@code user}, valid for the token lifetime (hbase.auth.token.max.lifetime). */
  public Token issue(String user) throws IOException {
    TokenKeys.Key key = keys.current();
    long now = clock.getAsLong();
    byte[] fields = AuthenticationProtos.TokenIdentifier.newBuilder()
        .setKind(AuthenticationProtos.TokenIdentifier.Kind.HBASE_AUTH_TOKEN)
        .setUsername(com.google.protobuf.ByteString.copyFromUtf8(user)).setKeyId(key.id()).setIssueDate(now)
        .setExpirationDate(now + keys.tokenLifetimeMillis()).setSequenceNumber(sequence.incrementAndGet())
        .build().toByteArray();
    // As AuthenticationTokenIdentifier.write: the protobuf behind its length.
    byte[] identifier = java.nio.ByteBuffer.allocate(4 + fields.length).putInt(fields.length).put(fields).array();
    return new Token(identifier, sign(key.secret(), identifier), clusterId.get());
  }

  /**
   * The password of a token identifier, for DIGEST-MD5 to check the client's proof against; refuses an
   * identifier that does not parse, has expired, or names a key no server holds.
   */
  public byte[] password(byte[] identifier) throws InvalidToken {
    AuthenticationTokenIdentifier id = parse(identifier);
    if (id.getExpirationDate() <= clock.getAsLong()) {
      throw new InvalidToken("token for " + id.getUsername() + " expired at "
          + java.time.Instant.ofEpochMilli(id.getExpirationDate()));
    }
    TokenKeys.Key key;
    try {
      key = keys.byId(id.getKeyId());
    } catch (IOException e) {
      throw (InvalidToken) new InvalidToken("token signing keys unavailable: " + e.getMessage()).initCause(e);
    }
    if (key == null) {
      throw new InvalidToken("token for " + id.getUsername() + " names signing key " + id.getKeyId()
          + ", which this cluster does not hold (expired, or another cluster's token)");
    }
    return sign(key.secret(), identifier);
  }

  /** The user a token identifier was issued to. */
  public static String owner(byte[] identifier) throws InvalidToken {
    return parse(identifier).getUsername();
  }

  private static AuthenticationTokenIdentifier parse(byte[] identifier) throws InvalidToken {
    // The length prefix must match what arrived: readFields would allocate whatever a forged one says.
    if (identifier == null || identifier.length < 4
        || java.nio.ByteBuffer.wrap(identifier).getInt() != identifier.length - 4) {
      throw new InvalidToken("not an HBase authentication token identifier");
    }
    AuthenticationTokenIdentifier id = new AuthenticationTokenIdentifier();
    try {
      id.readFields(new DataInputStream(new ByteArrayInputStream(identifier)));
    } catch (IOException | RuntimeException e) {
      throw new InvalidToken("not an HBase authentication token identifier");
    }
    if (id.getUsername() == null || id.getUsername().isEmpty()) {
      throw new InvalidToken("token identifier without a user");
    }
    return id;
  }

  private static byte[] sign(byte[] secret, byte[] identifier) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(secret, HMAC));
      return mac.doFinal(identifier);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(HMAC + " is part of every JDK", e);
    }
  }
}
