package io.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class TransportTest {
  /** The native library comes with the server's dependencies: losing it would silently fall back to NIO. */
  @Test
  @EnabledOnOs(value = OS.LINUX, architectures = {"amd64", "aarch64"})
  void linuxServesWithEpoll() {
    assertThat(Transport.choose()).isEqualTo(Transport.EPOLL);
  }
}
