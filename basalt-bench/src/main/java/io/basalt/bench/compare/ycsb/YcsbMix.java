package io.basalt.bench.compare.ycsb;

import java.util.Properties;

/**
 * YCSB's core workloads A-F (the workloads/workload[a-f] files of YCSB 0.17.0) as CoreWorkload properties, with
 * 1 KB records in 10 fields of 100 bytes. The request distribution is the variant's (zipfian or uniform), except
 * that D's zipfian variant keeps YCSB's "latest" (zipfian over recency).
 */
public enum YcsbMix {
  A("update heavy", "readproportion=0.5", "updateproportion=0.5"),
  B("read mostly", "readproportion=0.95", "updateproportion=0.05"),
  C("read only", "readproportion=1"),
  D("read latest", "readproportion=0.95", "insertproportion=0.05"),
  E("short ranges", "scanproportion=0.95", "insertproportion=0.05", "maxscanlength=100",
      "scanlengthdistribution=uniform"),
  F("read-modify-write", "readproportion=0.5", "readmodifywriteproportion=0.5");

  private final String description;
  private final String[] settings;

  YcsbMix(String description, String... settings) {
    this.description = description;
    this.settings = settings;
  }

  public String description() {
    return description;
  }

  /** The CoreWorkload properties of this mix under {@code distribution} ("zipfian" or "uniform"). */
  Properties properties(String table, long recordCount, long operationCount, String distribution) {
    Properties p = new Properties();
    p.setProperty("table", table);
    p.setProperty("recordcount", Long.toString(recordCount));
    p.setProperty("operationcount", Long.toString(operationCount));
    p.setProperty("fieldcount", "10");
    p.setProperty("fieldlength", "100");
    p.setProperty("readallfields", "true");
    for (String proportion : new String[] {"readproportion", "updateproportion", "scanproportion",
        "insertproportion", "readmodifywriteproportion"}) {
      p.setProperty(proportion, "0");
    }
    for (String s : settings) {
      int eq = s.indexOf('=');
      p.setProperty(s.substring(0, eq), s.substring(eq + 1));
    }
    p.setProperty("requestdistribution", this == D && distribution.equals("zipfian") ? "latest" : distribution);
    return p;
  }
}
