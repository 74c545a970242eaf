package io.basalt.server.transfer;

import io.basalt.storage.segment.LogSegmentSet;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * What a region move ships: the log segments of one region with their lengths, and the newest segment
 * number the source had sealed when it was taken. The master passes manifests in RPC messages and
 * ZooKeeper nodes, so they have a compact byte encoding (unsigned LEB128 varints):
 *
 * <pre>
 *   byte    version (1)
 *   varint  length of the region's encoded name, then its bytes (ASCII)
 *   varint  lastSegment + 1 (0: none)
 *   varint  number of segments
 *   per segment, ascending numbers:
 *     varint  segment number minus the previous one's (the first: its number)
 *     varint  length in bytes
 *   int32   CRC32C of all the bytes before it, big-endian
 * </pre>
 *
 * A 20 GB region in 2,000 segments of 10 MB encodes in about 10 KB.
 *
 * @param region the region's encoded name (its directory name)
 * @param segments in ascending segment number
 * @param lastSegment newest segment sealed by the source when the manifest was taken (at least the
 *     number of every listed segment), -1 if none
 */
public record SegmentManifest(String region, List<Segment> segments, long lastSegment) {
  private static final byte VERSION = 1;
  private static final Pattern REGION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
  private static final long MAX_SEGMENT = 0xFFFF_FFFFL;

  /** One log segment file: {@code NNNNNNNN.jdb} (the number in hex) of {@code length} bytes. */
  public record Segment(long number, long length) {
    public Segment {
      if (number < 0 || number > MAX_SEGMENT) {
        throw new IllegalArgumentException("segment number out of range: " + number);
      }
      if (length < 0) {
        throw new IllegalArgumentException("negative length of segment " + number);
      }
    }

    public String fileName() {
      return LogSegmentSet.fileName(number);
    }
  }

  public SegmentManifest {
    requireValidRegionName(region);
    segments = List.copyOf(segments);
    if (lastSegment < -1 || lastSegment > MAX_SEGMENT) {
      throw new IllegalArgumentException("last segment out of range: " + lastSegment);
    }
    long previous = -1;
    for (Segment s : segments) {
      if (s.number() <= previous) {
        throw new IllegalArgumentException("segments not in ascending order at " + s.number());
      }
      previous = s.number();
    }
    if (previous > lastSegment) {
      throw new IllegalArgumentException("segment " + previous + " is newer than the last segment " + lastSegment);
    }
  }

  /** The manifest of an open segment set (from {@code Region.logSegments()} or {@code closedSegments}). */
  public static SegmentManifest of(String region, LogSegmentSet set) {
    List<Segment> segments = new ArrayList<>(set.files().size());
    try {
      for (Path p : set.files()) {
        segments.add(new Segment(LogSegmentSet.segmentNumber(p), Files.size(p)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("sizing the segments of region " + region, e);
    }
    return new SegmentManifest(region, segments, set.lastSegment());
  }

  /** Region names travel in file paths: letters, digits, {@code _ . -}, not starting with a dot. */
  public static boolean isValidRegionName(String region) {
    return region != null && REGION_NAME.matcher(region).matches();
  }

  static void requireValidRegionName(String region) {
    if (!isValidRegionName(region)) {
      throw new IllegalArgumentException("invalid region name: " + region);
    }
  }

  public long totalBytes() {
    long total = 0;
    for (Segment s : segments) {
      total += s.length();
    }
    return total;
  }

  /** The length of {@code fileName} in this manifest, empty if it is not listed. */
  public OptionalLong lengthOf(String fileName) {
    for (Segment s : segments) {
      if (s.fileName().equals(fileName)) {
        return OptionalLong.of(s.length());
      }
    }
    return OptionalLong.empty();
  }

  public byte[] encode() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 + region.length() + segments.size() * 6);
    out.write(VERSION);
    byte[] name = region.getBytes(StandardCharsets.US_ASCII);
    writeVarint(out, name.length);
    out.write(name, 0, name.length);
    writeVarint(out, lastSegment + 1);
    writeVarint(out, segments.size());
    long previous = 0;
    for (Segment s : segments) {
      writeVarint(out, s.number() - previous);
      writeVarint(out, s.length());
      previous = s.number();
    }
    CRC32C crc = new CRC32C();
    crc.update(out.toByteArray());
    int sum = (int) crc.getValue();
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.write(sum >>> shift);
    }
    return out.toByteArray();
  }

  /** Decodes {@link #encode()}'s bytes; a corrupt, truncated or unknown encoding is an IllegalArgumentException. */
  public static SegmentManifest decode(byte[] bytes) {
    if (bytes.length < 5) {
      throw new IllegalArgumentException("segment manifest truncated (" + bytes.length + " bytes)");
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (in.getInt(bytes.length - 4) != (int) crc.getValue()) {
      throw new IllegalArgumentException("segment manifest checksum mismatch");
    }
    in.limit(bytes.length - 4);
    try {
      byte version = in.get();
      if (version != VERSION) {
        throw new IllegalArgumentException("unknown segment manifest version " + version);
      }
      byte[] name = new byte[(int) readVarint(in, 128)];
      in.get(name);
      long last = readVarint(in, MAX_SEGMENT + 1) - 1;
      int count = (int) readVarint(in, in.remaining() / 2);
      List<Segment> segments = new ArrayList<>(Math.min(count, in.remaining()));
      long number = 0;
      for (int i = 0; i < count; i++) {
        number += readVarint(in, MAX_SEGMENT);
        segments.add(new Segment(number, readVarint(in, Long.MAX_VALUE)));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("segment manifest has " + in.remaining() + " trailing bytes");
      }
      return new SegmentManifest(new String(name, StandardCharsets.US_ASCII), segments, last);
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("segment manifest truncated", e);
    }
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static long readVarint(ByteBuffer in, long max) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0 || v > max) {
          throw new IllegalArgumentException("segment manifest value out of range: " + v);
        }
        return v;
      }
    }
    throw new IllegalArgumentException("segment manifest varint too long");
  }
}
