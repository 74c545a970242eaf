package io.basalt.storage.replication;

/** A member of a replica group as the group's own records list it. */
public record GroupMember(String nodeName, String host, int port) {}
