package io.basalt.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BasaltConfigTest {
  @TempDir
  Path dir;

  private Path site(String properties) throws Exception {
    Path f = dir.resolve("basalt-site.xml");
    Files.writeString(f, "<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n"
        + "<configuration>\n" + properties + "</configuration>\n");
    return f;
  }

  private static String prop(String name, String value) {
    return "  <property>\n    <name>" + name + "</name>\n    <value>" + value + "</value>\n"
        + "    <description>ignored</description>\n  </property>\n";
  }

  @Test
  void unsetKeysReadAsDefaults() {
    BasaltConfig c = BasaltConfig.defaults();
    assertThat(c.get(ServerKeys.MASTER_PORT)).isEqualTo(16000);
    assertThat(c.get(ServerKeys.MASTER_INFO_PORT)).isEqualTo(16010);
    assertThat(c.get(StorageKeys.CACHE_BYTES)).isEqualTo(256L << 20);
    assertThat(ZooKeeperKeys.connectString(c)).isEqualTo("127.0.0.1:2181");
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void anHBaseSiteFileCarriesOverAndWarnsOnceAboutKeysBasaltDoesNotUse() throws Exception {
    Path f = site(prop("hbase.zookeeper.quorum", "zk1,zk2:2281, zk3") + prop("hbase.zookeeper.property.clientPort", "2222")
        + prop("hbase.rootdir", "hdfs://nn/hbase") + prop("hbase.cluster.distributed", "true")
        + prop("zookeeper.session.timeout", "90000") + prop("hbase.master.info.port", "-1"));
    BasaltConfig c = BasaltConfig.load(f, Map.of());
    assertThat(ZooKeeperKeys.connectString(c)).isEqualTo("zk1:2222,zk2:2281,zk3:2222");
    assertThat(c.get(ZooKeeperKeys.SESSION_TIMEOUT)).isEqualTo(90_000);
    assertThat(c.get(ServerKeys.MASTER_INFO_PORT)).isEqualTo(-1);
    assertThat(c.warnings()).containsExactly(
        "configuration key hbase.rootdir is HBase's or Hadoop's and not used by Basalt; ignored",
        "configuration key hbase.cluster.distributed is HBase's or Hadoop's and not used by Basalt; ignored");
  }

  @Test
  void overridesWinOverTheFileAndAliasesNameKeys() throws Exception {
    Path f = site(prop("hbase.master.port", "17000") + prop("basalt.data.dir", "/srv/basalt"));
    List<String> rest = new ArrayList<>();
    BasaltConfig c = ConfigArgs.load(new String[] {"--config", f.toString(), "-Dhbase.master.port=18000",
        "-D", "basalt.storage.cache.size=1g", "--rs", "19000", "positional"}, Map.of("--rs", ServerKeys.REGIONSERVER_PORT), rest);
    assertThat(c.get(ServerKeys.MASTER_PORT)).isEqualTo(18000);
    assertThat(c.get(ServerKeys.DATA_DIR)).isEqualTo("/srv/basalt");
    assertThat(c.get(StorageKeys.CACHE_BYTES)).isEqualTo(1L << 30);
    assertThat(c.get(ServerKeys.REGIONSERVER_PORT)).isEqualTo(19000);
    assertThat(rest).containsExactly("positional");
    assertThatThrownBy(() -> ConfigArgs.loadStrict(new String[] {"--nope"}, Map.of()))
        .hasMessageStartingWith("unknown option --nope");
    assertThatThrownBy(() -> ConfigArgs.loadStrict(new String[] {"-Dnovalue"}, Map.of()))
        .hasMessage("-Dnovalue must be -Dkey=value");
  }

  @Test
  void invalidValuesAreRejectedNamingTheKey() throws Exception {
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("hbase.master.port", "sixteen")))
        .isInstanceOf(InvalidConfigException.class).hasMessage("hbase.master.port: 'sixteen' is not a port number");
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("hbase.regionserver.port", "70000")))
        .hasMessage("hbase.regionserver.port: '70000' is not a port number");
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("hbase.master.port", "-1")))
        .hasMessageStartingWith("hbase.master.port:");
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("basalt.storage.cache.size", "12x")))
        .hasMessageStartingWith("basalt.storage.cache.size: '12x' is not a size");
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("zookeeper.znode.parent", "hbase")))
        .hasMessageStartingWith("zookeeper.znode.parent: 'hbase' must be an absolute ZooKeeper path");
    assertThatThrownBy(() -> BasaltConfig.of(Map.of("zookeeper.session.timeout", "10")))
        .hasMessageStartingWith("zookeeper.session.timeout: '10' is not");
    Path broken = dir.resolve("broken.xml");
    Files.writeString(broken, "<configuration><property><name>x</name>");
    assertThatThrownBy(() -> BasaltConfig.load(broken, Map.of())).hasMessageContaining("broken.xml is not well-formed XML");
    assertThatThrownBy(() -> BasaltConfig.load(dir.resolve("missing.xml"), Map.of())).hasMessageContaining("does not exist");
  }

  @Test
  void typosInKeysGetASuggestion() {
    BasaltConfig c = BasaltConfig.of(Map.of("hbase.master.prot", "16000", "basalt.storage.cache.sise", "1m", "my.key", "1"));
    assertThat(c.warnings()).containsExactlyInAnyOrder(
        "unknown configuration key hbase.master.prot (did you mean hbase.master.port?); ignored",
        "unknown configuration key basalt.storage.cache.sise (did you mean basalt.storage.cache.size?); ignored",
        "unknown configuration key my.key (see basalt config --list); ignored");
  }

  @Test
  void variablesExpandFromOtherKeysAndSystemProperties() throws Exception {
    Path f = site(prop("my.base", "/srv/b") + prop("basalt.data.dir", "${my.base}/data")
        + prop("hbase.zookeeper.property.dataDir", "${java.io.tmpdir}/zk"));
    BasaltConfig c = BasaltConfig.load(f, Map.of());
    assertThat(c.get(ServerKeys.DATA_DIR)).isEqualTo("/srv/b/data");
    assertThat(ZooKeeperKeys.dataDir(c)).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "zk"));
  }

  @Test
  void theListingShowsEveryKeyWithTypeDefaultAndMeaning() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ConfigListing.print(BasaltConfig.of(Map.of("hbase.master.port", "17000")), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String text = bytes.toString(StandardCharsets.UTF_8);
    for (ConfigKey<?> k : KnownKeys.all()) {
      assertThat(text).contains(k.name() + "  (" + k.type() + ", default ");
      assertThat(k.doc()).isNotBlank();
    }
    assertThat(text).contains("hbase.master.port  (port, default 16000, set to 17000)");
    assertThat(text).contains("# zookeeper");
    assertThat(KnownKeys.all()).hasSizeGreaterThan(10);
  }
}
