package io.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.config.InvalidConfigException;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.rpc.RpcLimits;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StandaloneConfigTest {
  private final StandaloneConfig defaults = StandaloneConfig.defaults(Path.of("data"));

  @Test
  void handlerCountsAndTheRequestLimitAreHBasesByDefault() {
    assertThat(defaults.regionServerConfig("zk:2181").rpc()).isEqualTo(new RpcLimits(30, 256 << 20));
    assertThat(defaults.masterConfig("zk:2181").rpc()).isEqualTo(new RpcLimits(25, 256 << 20));
  }

  @Test
  void handlerCountsAndTheRequestLimitComeFromTheSettings() {
    StandaloneConfig c = new StandaloneConfig(defaults.settings().with(RpcKeys.REGIONSERVER_HANDLERS, "64")
        .with(RpcKeys.MASTER_HANDLERS, "8").with(RpcKeys.MAX_REQUEST_SIZE, "16m"));
    assertThat(c.regionServerConfig("zk:2181").rpc()).isEqualTo(new RpcLimits(64, 16 << 20));
    assertThat(c.masterConfig("zk:2181").rpc()).isEqualTo(new RpcLimits(8, 16 << 20));
  }

  @Test
  void aRequestLimitAFrameCannotCarryIsRefused() {
    assertThatThrownBy(() -> defaults.settings().with(RpcKeys.MAX_REQUEST_SIZE, "2g"))
        .isInstanceOf(InvalidConfigException.class).hasMessageContaining("hbase.ipc.max.request.size");
    assertThatThrownBy(() -> defaults.settings().with(RpcKeys.REGIONSERVER_HANDLERS, "0"))
        .isInstanceOf(InvalidConfigException.class).hasMessageContaining("hbase.regionserver.handler.count");
  }
}
