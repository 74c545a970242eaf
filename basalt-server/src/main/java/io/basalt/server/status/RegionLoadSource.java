package io.basalt.server.status;

import java.util.Map;

/**
 * Where the master's pages get region sizes and rates, by encoded region name. Standalone reads its one
 * region server directly; a cluster master knows none until region servers report their load to it.
 */
@FunctionalInterface
public interface RegionLoadSource {
  RegionLoadSource NONE = Map::of;

  Map<String, RegionLoad> regionLoads();
}
