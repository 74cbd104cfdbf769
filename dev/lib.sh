# Shared helpers for dev/ scripts: paths, Java 25, logging.
# Sourced, never executed.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE="$ROOT/.state"
export JAVA_HOME=${AGENTCOMPUTE_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
export INCUS_DIR="$STATE/incus"
log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }
