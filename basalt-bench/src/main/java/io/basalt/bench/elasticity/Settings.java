package io.basalt.bench.elasticity;

import java.util.List;

/**
 * What one run measures and with which sizes. {@code splitSizesMb}: regions to split (MB of values);
 * {@code moveSizeMb}, {@code moves}: the region moved back and forth under load; {@code bulkValueBytes}: the
 * value size of the split and moved regions (their number of cells matters too); {@code growth*}: the
 * Fig. 9 run (records of {@code recordBytes}, {@code regions} regions on two servers, a third server started
 * after {@code growthWarmupSeconds}, the run lasting {@code growthSeconds}).
 */
record Settings(List<Integer> splitSizesMb, int moveSizeMb, int moves, int bulkValueBytes, int threads,
    int readPercent, long records, int recordBytes, int regions, int growthWarmupSeconds, int growthSeconds,
    long balancePauseMillis, int serverHeapMb, int serverCacheMb, List<String> serverJvmFlags) {

  static Settings quick() {
    return new Settings(List.of(20, 100), 100, 2, 8 << 10, 4, 95, 20_000, 1000, 6, 8, 35, 2_000, 512, 64, List.of());
  }

  static Settings full() {
    return new Settings(List.of(100, 1024, 5120), 1024, 3, 8 << 10, 8, 95, 300_000, 1000, 12, 60, 240, 4_000, 1024, 256, List.of());
  }
}
