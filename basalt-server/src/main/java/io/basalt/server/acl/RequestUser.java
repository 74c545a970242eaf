package io.basalt.server.acl;

import java.util.List;

/**
 * The user a call is checked as: its short name (HBase's {@code User.getShortName()}: the principal's first
 * component, without host and realm) and groups. {@code member}: a master or region server of this cluster
 * (proved the cluster secret), which HBase would see as its own service user, a superuser.
 */
public record RequestUser(String name, List<String> groups, boolean member) {}
