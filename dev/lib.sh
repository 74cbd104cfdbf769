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
# Detaches the loop devices backing the *.img files in DIR (a btrfs storage pool's, see
# dev/storage-pool), unmounting what is mounted from them first. incusd releases them itself on a
# clean shutdown; this catches an incusd that was killed.
release_loop_files() { # DIR
  local img dev target
  for img in "$1"/*.img; do
    [ -e "$img" ] || continue
    for dev in $(losetup -j "$img" -n -O NAME 2>/dev/null); do
      for target in $(findmnt -rn -S "$dev" -o TARGET 2>/dev/null | sort -r); do
        umount "$target" 2>/dev/null || umount -l "$target" || log "could not unmount $target"
      done
      losetup -d "$dev" && log "released loop device $dev ($img)"
    done
  done
}
