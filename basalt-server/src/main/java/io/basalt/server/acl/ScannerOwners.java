package io.basalt.server.acl;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.security.AccessDeniedException;

/**
 * Who opened each open scanner, so that only its owner continues or closes it (HBase's "is not the scanner
 * owner" check). Scanners that expire without a close are forgotten oldest first once the bound is reached.
 */
final class ScannerOwners {
  private static final int BOUND = 100_000;

  private final Map<Long, String> owners = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
      return size() > BOUND;
    }
  };

  synchronized void opened(long scannerId, String user) {
    owners.put(scannerId, user);
  }

  synchronized void closed(long scannerId) {
    owners.remove(scannerId);
  }

  /** An unknown scanner passes: the region server answers UnknownScannerException as without authorisation. */
  synchronized void check(long scannerId, String user) throws AccessDeniedException {
    String owner = owners.get(scannerId);
    if (owner != null && !owner.equals(user)) {
      throw new AccessDeniedException("User '" + user + "' is not the scanner owner!");
    }
  }
}
