package io.basalt.bench.storage;

/** One row of the rates table. */
record RateResult(String workload, String data, long cacheMb, Rate rate) {}
