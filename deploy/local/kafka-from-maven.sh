#!/usr/bin/env bash
# kafka-from-maven.sh — provision and run a single-node Apache Kafka broker in KRaft mode
# (combined broker+controller on 127.0.0.1) using ONLY artifacts resolved from Maven Central.
# No Docker, no kafka_2.13-X.tgz download.  Needs: java >= 17 (Kafka 4.x broker), mvn >= 3.6.3.
#
#   kafka-from-maven.sh fetch    # resolve jars into $KAFKA_LIBS_DIR/libs-$KAFKA_VERSION (cached across runs)
#   kafka-from-maven.sh start    # fetch (if needed) + write config + format storage + start + wait
#   kafka-from-maven.sh stop     # SIGTERM, wait, SIGKILL after $KAFKA_STOP_TIMEOUT s, wipe data
#   kafka-from-maven.sh status | logs | render   (render = write pom/configs only, no network)
#
# Env: KAFKA_VERSION (default 4.1.1; 3.9.x also supported), KAFKA_HOME (per-broker config/data/logs,
#      default /tmp/kafka-ci), KAFKA_LIBS_DIR (jar cache shared by all brokers, default
#      ${ONRAMP_CACHE:-$HOME/.cache/onramp}/kafka), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
#      KAFKA_HEAP_OPTS, KAFKA_START_TIMEOUT (90), KAFKA_STOP_TIMEOUT (30), KAFKA_CLUSTER_ID,
#      KAFKA_WATCH_PID (stop the broker when that process dies, so a crashed caller leaves no orphan),
#      KAFKA_KEEP_DATA (non-empty: `stop` keeps the topic data),
#      LOG4J2_VERSION, MVN (default: mvn).
#
# Several brokers run side by side given distinct KAFKA_HOME and port pairs; they share the jar cache.
#
# Client note: kafkajs 2.2.4 (the npm client we use) works against 4.1.1, so 4.1.1 stays the default:
# kafkajs negotiates API versions per request, and the versions it picks survived KIP-896's removal
# of old protocol versions in 4.0. Verified against this broker: admin create/describe/delete topics,
# idempotent and transactional produce (incl. sendOffsets), consumer groups with commits, offset
# admin calls, read_committed consumption (start-infra.int-spec.ts keeps the basic path tested).
#
# Sources (apache/kafka unless noted; "4.1" = branch 4.1 of the confluentinc/kafka mirror of it):
#  [S1] bin/kafka-server-start.sh + bin/kafka-run-class.sh: main class kafka.Kafka, JVM opts, -Dkafka.logs.dir
#  [S2] bin/kafka-storage.sh: main class kafka.tools.StorageTool (3.9, 4.0-4.3, trunk)
#  [S3] core/src/main/scala/kafka/tools/StorageTool.scala: `format -t <id> -c <file> [-g]`;
#       --standalone only with controller.quorum.bootstrap.servers (dynamic quorum), forbidden with
#       controller.quorum.voters in 4.x ("You cannot specify controller.quorum.voters and format the
#       node with --initial-controllers or --standalone")
#  [S4] config/kraft/server.properties (3.9) and config/server.properties (4.1): combined-mode keys
#  [S5] build.gradle: core publishes kafka_2.13 via maven-publish (`implementation` -> runtime scope);
#       logging backends are compileOnly/releaseOnly, i.e. NOT in the pom:
#       3.9: `compileOnly libs.reload4j` (core, server, metadata) -> add ch.qos.reload4j:reload4j 1.2.25
#            + org.slf4j:slf4j-reload4j 1.7.36 (gradle/dependencies.gradle versions)
#       4.x: `compileOnly log4j2Libs` (core), `releaseOnly log4jReleaseLibs` = log4j-slf4j-impl,
#            log4j-1.2-api, jackson-dataformat-yaml -> add log4j-slf4j-impl (+ api/core pinned)
#  [S6] core/.../KafkaBroker.scala STARTED_MESSAGE = "Kafka Server started", logged at INFO by
#       kafka.server.KafkaRaftServer once the broker is up (used as readiness signal)
#  [S7] maven-dependency-plugin copy-dependencies: includeScope / outputDirectory / mdep.prependGroupId
set -euo pipefail

KAFKA_VERSION="${KAFKA_VERSION:-4.1.1}"
SCALA_BINARY="${SCALA_BINARY:-2.13}"
LOG4J2_VERSION="${LOG4J2_VERSION:-2.24.3}"          # any log4j2 >= 2.17 works; pinned so api/core/slf4j-impl agree
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.8.1"   # pin: Maven 3.8.7's super-POM default is 2.8
KAFKA_HOME="${KAFKA_HOME:-${TMPDIR:-/tmp}/kafka-ci}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
# Any base64url-encoded 16-byte UUID; this one is used by Kafka's own docker/examples compose files.
KAFKA_CLUSTER_ID="${KAFKA_CLUSTER_ID:-4L6g3nShT-eMCtK--X86sw}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
MVN="${MVN:-mvn}"

KAFKA_LIBS_DIR="${KAFKA_LIBS_DIR:-${ONRAMP_CACHE:-$HOME/.cache/onramp}/kafka}"
LIBS="$KAFKA_LIBS_DIR/libs-$KAFKA_VERSION"
CONF_DIR="$KAFKA_HOME/config"
DATA_DIR="$KAFKA_HOME/data"
LOG_DIR="$KAFKA_HOME/logs"
PID_FILE="$KAFKA_HOME/kafka.pid"
OUT_FILE="$LOG_DIR/kafka.out"
POM="$KAFKA_LIBS_DIR/pom-$KAFKA_VERSION.xml"
WATCH_PID_FILE="$KAFKA_HOME/watchdog.pid"

case "$KAFKA_VERSION" in
  3.*) KAFKA_MAJOR=3 ;;
  4.*|5.*) KAFKA_MAJOR=4 ;;
  *) echo "unsupported KAFKA_VERSION=$KAFKA_VERSION (use 3.9.x or 4.x)" >&2; exit 2 ;;
esac

log() { echo "[kafka-from-maven] $*" >&2; }

write_pom() {
  mkdir -p "$KAFKA_LIBS_DIR"
  local logging_deps
  if [ "$KAFKA_MAJOR" = 3 ]; then
    # [S5] 3.9: reload4j is compileOnly -> absent from kafka_2.13's pom; Kafka's tarball ships these two.
    logging_deps='
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>'
  else
    # [S5] 4.x: Kafka logs through slf4j-api 1.7.36 -> the slf4j-1.x binding is log4j-slf4j-impl (NOT slf4j2-impl).
    # Declared at depth 1 so Maven's nearest-wins keeps api/core/binding on one version.
    logging_deps="
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-api</artifactId><version>$LOG4J2_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>$LOG4J2_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J2_VERSION</version></dependency>"
  fi
  cat > "$POM" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.ci</groupId>
  <artifactId>kafka-broker-runtime</artifactId>
  <version>$KAFKA_VERSION</version>
  <packaging>pom</packaging>
  <dependencies>
    <!-- the broker: core + (runtime-scoped) kafka-server, -storage, -raft, -metadata, -clients, scala-library, ... -->
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_$SCALA_BINARY</artifactId><version>$KAFKA_VERSION</version></dependency>$logging_deps
  </dependencies>
</project>
EOF
}

write_configs() {
  mkdir -p "$CONF_DIR" "$DATA_DIR" "$LOG_DIR"
  # [S4] combined broker+controller, static quorum (works identically on 3.9 and 4.x, no --standalone needed)
  {
    cat <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$DATA_DIR
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
EOF
    if [ "$KAFKA_MAJOR" = 4 ]; then
      # [S4] 4.1 config/server.properties: share-group state topic (KIP-932) also needs RF 1 on one node
      printf '%s\n' 'share.coordinator.state.topic.replication.factor=1' 'share.coordinator.state.topic.min.isr=1'
    fi
  } > "$CONF_DIR/server.properties"

  # Logging: console only, WARN+ except the readiness line [S6]. No rolling files, no log spam.
  cat > "$CONF_DIR/log4j2.properties" <<'EOF'
name=kafka-ci
status=warn
appender.stdout.type=Console
appender.stdout.name=STDOUT
appender.stdout.layout.type=PatternLayout
appender.stdout.layout.pattern=[%d] %p %m (%c)%n
rootLogger.level=WARN
rootLogger.appenderRef.stdout.ref=STDOUT
logger.raftserver.name=kafka.server.KafkaRaftServer
logger.raftserver.level=INFO
EOF
  cat > "$CONF_DIR/log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
EOF
}

log_opts() {
  if [ "$KAFKA_MAJOR" = 3 ]; then
    echo "-Dlog4j.configuration=file:$CONF_DIR/log4j.properties"       # [S1] 3.9 kafka-server-start.sh
  else
    echo "-Dlog4j2.configurationFile=$CONF_DIR/log4j2.properties"     # [S1] 4.x kafka-server-start.sh
  fi
}

fetch() {
  if [ -f "$LIBS/.complete" ]; then return 0; fi
  mkdir -p "$KAFKA_LIBS_DIR"
  # Brokers started in parallel share the cache: one resolves, the others wait for it.
  # (flock is util-linux; without it, e.g. on macOS, parallel first fetches just race.)
  exec 8>"$KAFKA_LIBS_DIR/.fetch-$KAFKA_VERSION.lock"
  if command -v flock >/dev/null; then flock 8; fi
  if [ -f "$LIBS/.complete" ]; then exec 8>&-; return 0; fi
  command -v "$MVN" >/dev/null || { log "mvn not found"; exit 1; }
  write_pom
  rm -rf "$LIBS"; mkdir -p "$LIBS"
  log "resolving org.apache.kafka:kafka_$SCALA_BINARY:$KAFKA_VERSION (+ logging backend) from Maven Central"
  # [S7] runtime scope = compile + runtime deps (Gradle `api` -> compile, `implementation` -> runtime).
  # prependGroupId avoids silent overwrites if two groupIds ship the same artifactId-version.jar.
  "$MVN" -B -q --no-transfer-progress -Dstyle.color=never -f "$POM" \
    "$DEP_PLUGIN:copy-dependencies" \
    -DincludeScope=runtime -Dmdep.prependGroupId=true -DoutputDirectory="$LIBS"
  compgen -G "$LIBS/*kafka_$SCALA_BINARY-$KAFKA_VERSION.jar" >/dev/null || { log "kafka jar missing in $LIBS"; exit 1; }
  touch "$LIBS/.complete"
  exec 8>&-   # closing the fd releases the lock (and keeps it out of the broker's fds)
  local jars=("$LIBS"/*.jar); log "${#jars[@]} jars in $LIBS"
}

java_args() {  # [S1] same JVM flags as kafka-run-class.sh; $1 = heap opts. Sets JAVA_ARGS.
  local heap; read -r -a heap <<< "$1"
  JAVA_ARGS=("${heap[@]}" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true
    "-Dkafka.logs.dir=$LOG_DIR" "$(log_opts)" -cp "$LIBS/*")
}

# A detached loop that stops the broker once $KAFKA_WATCH_PID is gone (e.g. a SIGKILLed test runner).
start_watchdog() {
  local broker="$1" watched="${KAFKA_WATCH_PID:-}"
  [ -n "$watched" ] || return 0
  local detach=(); if command -v setsid >/dev/null; then detach=(setsid); fi   # own session: survives the caller's group
  ${detach[@]+"${detach[@]}"} nohup bash -c '
    while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
    if kill -0 "$2" 2>/dev/null; then
      kill -TERM "$2"; for _ in $(seq 1 "$3"); do kill -0 "$2" 2>/dev/null || exit 0; sleep 1; done
      kill -KILL "$2"
    fi' kafka-watchdog "$watched" "$broker" "$KAFKA_STOP_TIMEOUT" >/dev/null 2>&1 </dev/null &
  echo $! > "$WATCH_PID_FILE"
}

is_running() { [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; }

start() {
  if is_running; then log "already running (pid $(cat "$PID_FILE"))"; return 0; fi
  java -version 2>&1 | grep -E 'version "(1[7-9]|[2-9][0-9])' >/dev/null || { log "need Java >= 17"; exit 1; }
  fetch
  write_configs
  # [S2][S3] format the (single) log dir; -g makes a re-run on an already-formatted dir a no-op.
  # With controller.quorum.voters set, do NOT pass --standalone (4.x rejects it).
  java_args "-Xmx256m"
  java "${JAVA_ARGS[@]}" kafka.tools.StorageTool format \
    -t "$KAFKA_CLUSTER_ID" -c "$CONF_DIR/server.properties" -g >"$LOG_DIR/format.out" 2>&1 \
    || { cat "$LOG_DIR/format.out" >&2; exit 1; }
  : > "$OUT_FILE"
  # [S1] kafka.Kafka <server.properties> [--override k=v]*
  java_args "$KAFKA_HEAP_OPTS"
  nohup java "${JAVA_ARGS[@]}" kafka.Kafka "$CONF_DIR/server.properties" >>"$OUT_FILE" 2>&1 </dev/null &
  echo $! > "$PID_FILE"
  start_watchdog "$!"
  local t0=$SECONDS
  until grep -q "Kafka Server started" "$OUT_FILE"; do            # [S6]
    if ! is_running; then log "broker exited during startup:"; tail -50 "$OUT_FILE" >&2; exit 1; fi
    if (( SECONDS - t0 > KAFKA_START_TIMEOUT )); then
      log "not started after ${KAFKA_START_TIMEOUT}s:"; tail -50 "$OUT_FILE" >&2; stop; exit 1
    fi
    sleep 0.2
  done
  log "Kafka $KAFKA_VERSION up on 127.0.0.1:$KAFKA_PORT (pid $(cat "$PID_FILE"), $((SECONDS - t0))s)"
}

stop() {
  if is_running; then
    local pid; pid="$(cat "$PID_FILE")"
    kill -TERM "$pid" 2>/dev/null || true        # shutdown hook -> controlled shutdown
    local t0=$SECONDS
    while kill -0 "$pid" 2>/dev/null; do
      if (( SECONDS - t0 > KAFKA_STOP_TIMEOUT )); then log "SIGKILL $pid"; kill -KILL "$pid" 2>/dev/null || true; break; fi
      sleep 0.2
    done
    log "stopped (pid $pid)"
  fi
  if [ -f "$WATCH_PID_FILE" ]; then kill "$(cat "$WATCH_PID_FILE")" 2>/dev/null || true; rm -f "$WATCH_PID_FILE"; fi
  rm -f "$PID_FILE"
  # throw-away test broker: next start formats a fresh log dir (KAFKA_KEEP_DATA=1 keeps topics for a dev box)
  if [ -z "${KAFKA_KEEP_DATA:-}" ]; then rm -rf "$DATA_DIR"; fi
}

case "${1:-}" in
  fetch)  fetch ;;
  render) write_pom; write_configs; log "wrote $POM and $CONF_DIR/*" ;;
  start)  start ;;
  stop)   stop ;;
  status) if is_running; then echo "running pid $(cat "$PID_FILE")"; else echo "stopped"; exit 1; fi ;;
  logs)   cat "$OUT_FILE" ;;
  *) echo "usage: $0 {fetch|render|start|stop|status|logs}" >&2; exit 2 ;;
esac
