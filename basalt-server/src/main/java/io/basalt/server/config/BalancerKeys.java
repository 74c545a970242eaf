package io.basalt.server.config;

/** When the active master evens out regions between region servers. */
public final class BalancerKeys {
  private BalancerKeys() {}

  public static final ConfigKey<Integer> PERIOD = ConfigKey.integer("hbase.balancer.period", 300_000, 1_000,
      Integer.MAX_VALUE, "How often, in ms, the master runs the balancer (also a few seconds after a region server "
          + "joins, and on Admin.balance).");

  public static final ConfigKey<Integer> MOVE_PAUSE = ConfigKey.integer("basalt.balancer.move.pause", 3_000, 1,
      Integer.MAX_VALUE, "Pause in ms between two moves of one balancer run: regions move one at a time, so clients "
          + "feel one short blip at a time.");
}
