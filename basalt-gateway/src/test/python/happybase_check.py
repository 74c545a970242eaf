"""What happybase's documentation shows, against a Thrift 1 gateway, every answer checked.

    happybase_check.py HOST PORT TRANSPORT PROTOCOL      (transport: buffered|framed, protocol: binary|compact)

Prints one line per failed check and exits 1 on the first; prints "OK <n> checks" when all pass.
"""
import struct
import sys
import threading

import happybase

host, port, transport, protocol = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
checks = 0


def check(what, got, want):
    global checks
    checks += 1
    if got != want:
        print("FAIL %s: got %r, want %r" % (what, got, want))
        sys.exit(1)


def raises(what, exception_name, fn):
    global checks
    checks += 1
    try:
        fn()
    except Exception as e:  # the Thrift exception classes are generated at run time by thriftpy2
        if type(e).__name__ != exception_name:
            print("FAIL %s: raised %s (%s), want %s" % (what, type(e).__name__, e, exception_name))
            sys.exit(1)
        return e
    print("FAIL %s: nothing raised, want %s" % (what, exception_name))
    sys.exit(1)


pool = happybase.ConnectionPool(size=3, host=host, port=port, transport=transport, protocol=protocol,
                                timeout=60000)
name = "hb_%s_%s" % (transport, protocol)

with pool.connection() as conn:
    if name.encode() in conn.tables():
        conn.delete_table(name, disable=True)
    conn.create_table(name, {"cf": dict(max_versions=3), "meta": dict()})
    check("tables() lists the new table", name.encode() in conn.tables(), True)
    check("is_table_enabled", conn.is_table_enabled(name), True)
    raises("create_table of an existing table", "AlreadyExists", lambda: conn.create_table(name, {"cf": dict()}))

    table = conn.table(name)
    families = table.families()
    check("families", sorted(families), [b"cf", b"meta"])
    check("cf max_versions", families[b"cf"]["max_versions"], 3)
    regions = table.regions()
    check("one region", len(regions), 1)
    check("region has a server port", regions[0]["port"] > 0, True)

    # put / row / rows / cells
    table.put(b"row1", {b"cf:a": b"v1", b"cf:b": b"v2"})
    check("row", table.row(b"row1"), {b"cf:a": b"v1", b"cf:b": b"v2"})
    check("row with columns", table.row(b"row1", columns=[b"cf:a"]), {b"cf:a": b"v1"})
    check("row with a family", table.row(b"row1", columns=[b"cf"]), {b"cf:a": b"v1", b"cf:b": b"v2"})
    check("missing row", table.row(b"nothing"), {})
    ts_row = table.row(b"row1", include_timestamp=True)
    check("row timestamps", isinstance(ts_row[b"cf:a"][1], int) and ts_row[b"cf:a"][0] == b"v1", True)

    table.put(b"ver", {b"cf:x": b"old"}, timestamp=100)
    table.put(b"ver", {b"cf:x": b"new"}, timestamp=200)
    check("cells, all versions", table.cells(b"ver", b"cf:x"), [b"new", b"old"])
    check("cells, one version", table.cells(b"ver", b"cf:x", versions=1), [b"new"])
    check("cells with timestamps", table.cells(b"ver", b"cf:x", include_timestamp=True),
          [(b"new", 200), (b"old", 100)])
    check("cells before a timestamp", table.cells(b"ver", b"cf:x", timestamp=200), [b"old"])
    check("row before a timestamp", table.row(b"ver", timestamp=200), {b"cf:x": b"old"})

    # batch
    with table.batch(batch_size=4) as b:
        for i in range(10):
            b.put(("user%02d" % i).encode(), {b"cf:name": ("n%d" % i).encode(), b"meta:i": str(i).encode()})
        b.delete(b"row1")
    check("batch delete", table.row(b"row1"), {})
    check("rows", table.rows([b"user01", b"nothing", b"user03"]),
          [(b"user01", {b"cf:name": b"n1", b"meta:i": b"1"}), (b"user03", {b"cf:name": b"n3", b"meta:i": b"3"})])
    check("rows with columns", table.rows([b"user02"], columns=[b"meta:i"]), [(b"user02", {b"meta:i": b"2"})])

    def keys(**kw):
        return [k for k, _ in table.scan(**kw)]

    users = [("user%02d" % i).encode() for i in range(10)]
    check("scan row_prefix", keys(row_prefix=b"user"), users)
    check("scan row_start/row_stop", keys(row_start=b"user03", row_stop=b"user06"), users[3:6])
    check("scan limit", keys(row_prefix=b"user", limit=2), users[:2])
    check("scan small batches", keys(row_prefix=b"user", batch_size=3), users)
    check("scan columns", [d for _, d in table.scan(row_start=b"user04", row_stop=b"user05", columns=[b"meta"])],
          [{b"meta:i": b"4"}])
    # filterIfMissing=true: rows without meta:i ("cnt", "ver") are left out, as in HBase
    check("scan filter", keys(filter="SingleColumnValueFilter('meta', 'i', =, 'binary:7', true, true)"), [b"user07"])
    check("scan filter PrefixFilter", keys(filter="PrefixFilter('user05')"), [b"user05"])
    check("scan KeyOnlyFilter", [d for _, d in table.scan(row_start=b"user01", row_stop=b"user02",
                                                          filter="KeyOnlyFilter()")],
          [{b"cf:name": b"", b"meta:i": b""}])
    check("scan reverse", keys(row_start=b"user09", row_stop=b"user06", reverse=True), [users[9], users[8], users[7]])
    check("scan sorted_columns", [list(d) for _, d in table.scan(row_start=b"user01", row_stop=b"user02",
                                                                  sorted_columns=True)], [[b"cf:name", b"meta:i"]])
    check("scan scan_batching splits rows", [len(d) for _, d in table.scan(row_start=b"user01", row_stop=b"user02",
                                                                           scan_batching=1)], [1, 1])
    raises("scan with a malformed filter", "IOError", lambda: keys(filter="NoSuchFilter('x')"))

    # counters
    check("counter_inc", table.counter_inc(b"cnt", b"cf:hits"), 1)
    check("counter_inc by 5", table.counter_inc(b"cnt", b"cf:hits", value=5), 6)
    check("counter_get", table.counter_get(b"cnt", b"cf:hits"), 6)
    check("counter_dec", table.counter_dec(b"cnt", b"cf:hits", value=2), 4)
    table.counter_set(b"cnt", b"cf:set", 42)
    check("counter_set", table.counter_get(b"cnt", b"cf:set"), 42)
    check("counter is a big-endian long", table.row(b"cnt", columns=[b"cf:hits"]), {b"cf:hits": struct.pack(">q", 4)})

    # delete
    table.delete(b"user00", columns=[b"meta:i"])
    check("delete a column", table.row(b"user00"), {b"cf:name": b"n0"})
    table.delete(b"user01")
    check("delete a row", table.row(b"user01"), {})

    # errors, and the connection still serves afterwards
    missing = conn.table("no_such_table")
    raises("row of an unknown table", "IOError", lambda: missing.row(b"r"))
    raises("put with a bare family", "IllegalArgument", lambda: table.put(b"r", {b"cf": b"v"}))
    check("still serving after errors", table.row(b"user02", columns=[b"meta:i"]), {b"meta:i": b"2"})


# the connection pool, from several threads at once
def writer(n, failures):
    try:
        with pool.connection() as c:
            t = c.table(name)
            for i in range(20):
                t.put(("pool%d-%02d" % (n, i)).encode(), {b"cf:n": str(i).encode()})
    except Exception as e:
        failures.append(e)


failures = []
threads = [threading.Thread(target=writer, args=(n, failures)) for n in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
check("pool writers", failures, [])
with pool.connection() as conn:
    check("pool rows", sum(1 for _ in conn.table(name).scan(row_prefix=b"pool")), 60)
    conn.disable_table(name)
    check("disabled", conn.is_table_enabled(name), False)
    conn.delete_table(name)
    check("table dropped", name.encode() in conn.tables(), False)

print("OK %d checks" % checks)
