package dev.toolgate.it.support;

import static dev.toolgate.it.support.Await.await;

import dev.toolgate.launcher.LocalStack;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A highly available journal as teams run one: PostgreSQL 15 as a pair managed by Patroni (Debian's 3.0.2), with one
 * etcd (Debian's 3.4) as its store, on loopback ports. Synchronous replication ({@code synchronous_mode}) unless a test
 * turns it off. The gateway reaches the primary through a multi-host JDBC URL with {@code targetServerType=primary}
 * ({@link #jdbcUrl}): no load balancer in between, the driver tries each member and keeps the one that is not in
 * recovery.
 *
 * <p>The settings that matter, and why, are in docs/operations.md ("A Patroni pair"): a leader key of 10 s
 * ({@code ttl}), looked at every 2 s, {@code use_pg_rewind} with {@code wal_log_hints} so that a crashed primary
 * rejoins as a replica by itself. PostgreSQL refuses to run as root: when the tests do, Patroni and etcd run as the
 * {@code postgres} user ({@code setpriv}, which execs, so a process here is the server itself and can be signalled).
 */
public final class PatroniCluster implements AutoCloseable {

    private static final Path PATRONI = Path.of("/usr/bin/patroni");
    private static final Path ETCD = Path.of("/usr/bin/etcd");
    private static final Path BIN_DIR = Path.of("/usr/lib/postgresql/15/bin");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final boolean AS_ROOT = "root".equals(System.getProperty("user.name"));

    private final Path home;
    private final Process etcd;
    private final int etcdPort;
    private final List<Member> members = new ArrayList<>();

    private PatroniCluster(Path home, Process etcd, int etcdPort) {
        this.home = home;
        this.etcd = etcd;
        this.etcdPort = etcdPort;
    }

    /** etcd and two members, started; returns once a leader and a synchronous standby stream. */
    public static PatroniCluster start() throws Exception {
        for (Path binary : new Path[] {PATRONI, ETCD, BIN_DIR.resolve("postgres")}) {
            if (!Files.isExecutable(binary)) {
                throw new IllegalStateException("no " + binary + ": install Debian's patroni, etcd-server and postgresql-15"
                        + " (the build does it: it/src/test/debian/ensure-packages.sh)");
            }
        }
        SuiteTimings.started("Patroni pair");
        // under /tmp, not target/: the postgres user must own its data directories, whatever the checkout's permissions
        Path home = Files.createTempDirectory("toolgate-patroni-");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        int etcdPort = LocalStack.freePort();
        int peerPort = LocalStack.freePort();
        Path etcdData = ownedByPostgres(home.resolve("etcd"));
        Process etcd = start(log("etcd"), ETCD.toString(), "--name", "toolgate", "--data-dir", etcdData.toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdPort, "--advertise-client-urls", "http://127.0.0.1:" + etcdPort,
                "--listen-peer-urls", "http://127.0.0.1:" + peerPort, "--initial-advertise-peer-urls", "http://127.0.0.1:" + peerPort,
                "--initial-cluster", "toolgate=http://127.0.0.1:" + peerPort, "--enable-v2=true");
        PatroniCluster cluster = new PatroniCluster(home, etcd, etcdPort);
        try {
            await(() -> get("http://127.0.0.1:" + etcdPort + "/health") == 200, "etcd to answer", Duration.ofSeconds(30));
            for (String name : List.of("one", "two")) {
                Member member = cluster.new Member(name, LocalStack.freePort(), LocalStack.freePort());
                member.writeConfig();
                cluster.members.add(member);
                member.startPatroni();
                if (name.equals("one")) {
                    await(() -> member.role().equals("primary"), "the first member to bootstrap as the leader", Duration.ofSeconds(60));
                }
            }
            cluster.awaitPair(Duration.ofSeconds(90));
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    /** The journal's URL: every member, the driver keeping the one that is the primary. */
    public String jdbcUrl(String database) {
        StringBuilder hosts = new StringBuilder();
        for (Member member : members) {
            hosts.append(hosts.isEmpty() ? "" : ",").append("127.0.0.1:").append(member.postgresPort);
        }
        return "jdbc:postgresql://" + hosts + "/" + database + "?targetServerType=primary";
    }

    /** Creates {@code database} on the primary. */
    public void createDatabase(String database) throws SQLException {
        try (Connection c = connect("postgres")) {
            c.createStatement().execute("CREATE DATABASE " + database);
        }
    }

    /** A connection of the test's own to the primary, whichever member it is now. */
    public Connection connect(String database) throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", "postgres");
        login.setProperty("password", "postgres");
        login.setProperty("connectTimeout", "2");
        return DriverManager.getConnection(jdbcUrl(database), login);
    }

    /** The member that is the primary now, by Patroni's own health check ({@code GET /primary} answers 200 on it only). */
    public Member leader() {
        for (Member member : members) {
            if (member.role().equals("primary")) {
                return member;
            }
        }
        throw new IllegalStateException("no primary: " + describe());
    }

    /** The member that is not the leader. */
    public Member replica() {
        Member leader = leader();
        return members.get(0) == leader ? members.get(1) : members.get(0);
    }

    /**
     * Waits until one member is the primary and the other streams from it as its synchronous standby (or as a
     * replica when synchronous replication is off); returns how long that took.
     */
    public Duration awaitPair(Duration within) throws Exception {
        long since = System.nanoTime();
        await(() -> {
            JsonObject cluster = clusterState();
            if (cluster == null) {
                return false;
            }
            int leaders = 0;
            int streaming = 0;
            for (var member : cluster.getJsonArray("members")) {
                JsonObject m = member.asJsonObject();
                String role = m.getString("role", "");
                String state = m.getString("state", "");
                leaders += role.equals("leader") && state.equals("running") ? 1 : 0;
                streaming += (role.equals("sync_standby") || role.equals("replica") && !synchronous())
                        && (state.equals("streaming") || state.equals("running")) ? 1 : 0;
            }
            return leaders == 1 && streaming == 1;
        }, "a leader and a standby streaming from it (target/patroni-cluster/ has the logs)", within);
        return Duration.ofNanos(System.nanoTime() - since);
    }

    /** Waits until some member is the primary and accepts a write; returns how long that took. */
    public Duration awaitWritablePrimary(Duration within) throws Exception {
        long since = System.nanoTime();
        await(() -> {
            try (Connection c = connect("postgres"); ResultSet r = c.createStatement().executeQuery("SELECT pg_is_in_recovery()")) {
                return r.next() && !r.getBoolean(1);
            } catch (SQLException notYet) {
                return false;
            }
        }, "a writable primary", within);
        return Duration.ofNanos(System.nanoTime() - since);
    }

    /**
     * Turns synchronous replication on or off for the whole cluster, as an operator does ({@code PATCH /config}); with it
     * off, a lagging replica may still be promoted ({@code maximum_lag_on_failover} high), as teams that prefer
     * availability set it.
     */
    public void synchronous(boolean on) throws Exception {
        String config = "{\"synchronous_mode\":" + on + ",\"maximum_lag_on_failover\":" + (on ? 1048576 : 1073741824) + "}";
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(leader().restUrl() + "/config"))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(config)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("PATCH /config answered " + answer.statusCode() + ": " + answer.body());
        }
        await(() -> synchronous() == on, "synchronous_mode " + on + " in effect", Duration.ofSeconds(30));
    }

    private boolean synchronous() {
        try {
            HttpResponse<String> config = HTTP.send(HttpRequest.newBuilder(URI.create(members.get(0).restUrl() + "/config"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return config.statusCode() == 200 && Json.createReader(new StringReader(config.body())).readObject()
                    .getBoolean("synchronous_mode", false);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Patroni's view of the cluster ({@code GET /cluster} on any member that answers), for messages and waits. */
    private JsonObject clusterState() {
        for (Member member : members) {
            try {
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(member.restUrl() + "/cluster"))
                        .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return Json.createReader(new StringReader(answer.body())).readObject();
                }
            } catch (IOException notThisOne) {
                // ask the next member
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** One line of who is what, for failure messages. */
    public String describe() {
        JsonObject cluster = clusterState();
        return cluster == null ? "no member answers" : cluster.getJsonArray("members").toString();
    }

    /** One member: its Patroni, and the PostgreSQL that Patroni runs. */
    public final class Member {

        private final String name;
        private final int postgresPort;
        private final int restPort;
        private final Path dataDirectory;
        private Process patroni;

        private Member(String name, int postgresPort, int restPort) {
            this.name = name;
            this.postgresPort = postgresPort;
            this.restPort = restPort;
            this.dataDirectory = home.resolve(name).resolve("data");
        }

        public String name() {
            return name;
        }

        String restUrl() {
            return "http://127.0.0.1:" + restPort;
        }

        /** {@code primary}, {@code replica} or {@code down}, by Patroni's health checks. */
        public String role() {
            if (get(restUrl() + "/primary") == 200) {
                return "primary";
            }
            return get(restUrl() + "/replica") == 200 ? "replica" : "down";
        }

        /** SIGKILL to the postmaster, as the kernel's OOM killer or a crash does; Patroni itself keeps running. */
        public void killPostmaster() throws Exception {
            signal("KILL", postmasterPid());
        }

        /** The whole machine gone at once: SIGKILL to Patroni and to the postmaster. */
        public void crash() throws Exception {
            long postmaster = postmasterPid();
            patroni.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            signal("KILL", postmaster);
        }

        /**
         * Stops Patroni as an operator or systemd does (SIGTERM): it shuts PostgreSQL down cleanly and gives up the leader
         * key, so the synchronous standby takes over at once.
         */
        public void stopPatroni() throws InterruptedException {
            patroni.destroy();
            if (!patroni.waitFor(60, TimeUnit.SECONDS)) {
                patroni.destroyForcibly().waitFor();
            }
        }

        /** Starts (or starts again) this member's Patroni; a former primary rejoins as a replica, rewound if need be. */
        public void startPatroni() throws IOException {
            patroni = PatroniCluster.start(log(name), PATRONI.toString(), home.resolve(name + ".yml").toString());
        }

        /** The PID of the WAL receiver on this replica, the one process through which it hears from the primary. */
        public long walReceiverPid() throws SQLException {
            Properties login = new Properties();
            login.setProperty("user", "postgres");
            login.setProperty("password", "postgres");
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + postgresPort + "/postgres", login);
                 ResultSet r = c.createStatement().executeQuery("SELECT pid FROM pg_stat_wal_receiver")) {
                if (!r.next()) {
                    throw new IllegalStateException(name + " has no WAL receiver");
                }
                return r.getLong(1);
            }
        }

        private long postmasterPid() throws IOException {
            return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
        }

        private void writeConfig() throws IOException {
            Path dir = ownedByPostgres(home.resolve(name));
            Path sockets = ownedByPostgres(dir.resolve("sockets"));
            Files.writeString(home.resolve(name + ".yml"), String.join("\n",
                    "scope: toolgate",
                    "name: " + name,
                    "restapi:",
                    "  listen: 127.0.0.1:" + restPort,
                    "  connect_address: 127.0.0.1:" + restPort,
                    "etcd3:",
                    "  hosts: 127.0.0.1:" + etcdPort,
                    "bootstrap:",
                    "  dcs:",
                    "    ttl: 10",
                    "    loop_wait: 2",
                    "    retry_timeout: 5",
                    "    synchronous_mode: true",
                    "    maximum_lag_on_failover: 1048576",
                    "    postgresql:",
                    "      use_pg_rewind: true",
                    "      remove_data_directory_on_rewind_failure: true",
                    "      parameters:",
                    "        wal_log_hints: 'on'",
                    "        max_connections: 200",
                    "        fsync: 'on'",
                    "        synchronous_commit: 'on'",
                    "  initdb:",
                    "  - encoding: UTF8",
                    "  - locale: C.UTF-8",
                    "  pg_hba:",
                    "  - local all all trust",
                    "  - host replication replicator 127.0.0.1/32 md5",
                    "  - host all all 127.0.0.1/32 md5",
                    "postgresql:",
                    "  listen: 127.0.0.1:" + postgresPort,
                    "  connect_address: 127.0.0.1:" + postgresPort,
                    "  data_dir: " + dataDirectory,
                    "  bin_dir: " + BIN_DIR,
                    "  pgpass: " + dir.resolve("pgpass"),
                    "  authentication:",
                    "    replication:",
                    "      username: replicator",
                    "      password: replicator",
                    "    superuser:",
                    "      username: postgres",
                    "      password: postgres",
                    "  parameters:",
                    "    unix_socket_directories: " + sockets,
                    "tags:",
                    "  nofailover: false",
                    "  noloadbalance: false",
                    ""));
        }
    }

    /** Stops both members' Patroni (each stops its PostgreSQL) and etcd, and deletes their files. */
    @Override
    public void close() throws Exception {
        try {
            for (Member member : members) {
                if (member.patroni != null && member.patroni.isAlive()) {
                    member.stopPatroni();
                }
                try {
                    signal("KILL", member.postmasterPid()); // one left by a crashed Patroni
                } catch (IOException | IllegalStateException gone) {
                    // no postmaster.pid: it is down
                }
            }
        } finally {
            etcd.destroy();
            if (!etcd.waitFor(10, TimeUnit.SECONDS)) {
                etcd.destroyForcibly().waitFor();
            }
            LocalStack.deleteRecursively(home);
        }
    }

    /** {@code kill -SIGNAL pid}: the tests run as root or as the postgres user, either may signal the servers. */
    public static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        String said = new String(kill.getInputStream().readAllBytes());
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + ": " + said);
        }
    }

    private static Process start(Path log, String... command) throws IOException {
        List<String> line = new ArrayList<>();
        if (AS_ROOT) {
            line.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"));
        }
        line.addAll(List.of(command));
        // stdin from /dev/null, as systemd starts it: PostgreSQL inherits it through Patroni, and a backend whose
        // postmaster was killed while it waited for the synchronous standby goes on to read its next command from
        // stdin; on a pipe the JVM holds open it blocks there for ever, holding the shared memory, and that member's
        // PostgreSQL can never start again ("pre-existing shared memory block is still in use")
        // working in /: as the postgres user a checkout the build's user alone may enter (a clone in `mktemp -d`, 0700)
        // cannot be its working directory, and Patroni's spawned helpers chdir back to it and die there
        return new ProcessBuilder(line).directory(new File("/")).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** The log of one of its processes, kept under target/ after the cluster's files are gone. */
    private static Path log(String process) throws IOException {
        Path log = Path.of("target", "patroni-cluster", process + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        return log;
    }

    private static Path ownedByPostgres(Path dir) throws IOException {
        Files.createDirectories(dir);
        if (AS_ROOT) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            UserPrincipal postgres = users.lookupPrincipalByName("postgres");
            GroupPrincipal group = users.lookupPrincipalByGroupName("postgres");
            PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
            view.setOwner(postgres);
            view.setGroup(group);
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private static int get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
