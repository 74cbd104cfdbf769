# Shared helpers for dev/ scripts: paths, Java 25, logging.
# Sourced, never executed.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE="$ROOT/.state"
export JAVA_HOME=${AGENTCOMPUTE_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
export INCUS_DIR="$STATE/incus"
# CI runs with no standard input at all. A closed fd 0 is taken by the first file or socket a
# child opens, and Open vSwitch's tools then abort (poll-loop assertion on a socket at fd 0):
# every script and what it starts reads /dev/null instead.
[ -e "/proc/$$/fd/0" ] || exec </dev/null
log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }
