package io.basalt.server.control;

import java.net.InetSocketAddress;

/** Where a move's target pulls a region's log segments from, and which ones (an opaque manifest). */
public record MoveSource(InetSocketAddress transferAddress, byte[] manifest) {}
