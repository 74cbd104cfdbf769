# Shared by the suites that install the release's Debian package in a system container of the dev
# incusd and run its unit (tests/systemd/run, tests/cluster/servers-on-members) and by the suites
# whose image needs the Debian mirror (tests/cluster/run). Sourced after dev/lib.sh, never executed.

# Whether the system's apt mirror answers (an image built by debootstrap needs it): a suite whose
# image cannot be built skips when it does not, and fails when it does.
mirror_reachable() {
  local m
  m=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$m" ] || m=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$m" ] && curl -fsS --max-time 15 -o /dev/null "${m%/}/dists/bookworm/Release"
}

# dev/release of this commit into DIR (its log in DIR.log), SHA256SUMS checked; prints the .deb.
deb_release() { # VERSION DIR
  timeout 600 dev/release --version "$1" --dist "$2" >"$2.log" 2>&1 \
    || { tail -30 "$2.log" >&2; die "dev/release $1 failed"; }
  (cd "$2" && sha256sum -c --quiet SHA256SUMS) || die "$1's SHA256SUMS do not match"
  ls "$2"/agentcompute_"$1"_*.deb
}

# A client certificate for Incus, made for this run (EC P-384, one day).
client_cert() { # KEY CRT CN
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:secp384r1 -nodes -days 1 \
    -subj "/O=agentcompute tests/CN=$3" -keyout "$1" -out "$2" 2>/dev/null
}
cert_fingerprint() { openssl x509 -in "$1" -noout -fingerprint -sha256 | cut -d= -f2 | tr -d ':' | tr 'A-F' 'a-f'; }

# The package's files in container CT, as an operator installs them: the catalogue, the Incus
# client and pinned server certificates, the configuration, and the three files the unit loads as
# systemd credentials (docs/operations.md). DIR holds agentcompute.yaml, client.crt, client.key,
# tokens.json and tokens-secret.
deb_configure() { # CT DIR SERVER_CRT
  local ct=$1 dir=$2
  timeout 60 incus exec "$ct" -- mkdir -p /etc/agentcompute/images
  incus file push images/catalog.yaml "$ct/etc/agentcompute/images/catalog.yaml" >/dev/null
  incus file push "$dir/client.crt" "$ct/etc/agentcompute/incus-client.crt" >/dev/null
  incus file push "$3" "$ct/etc/agentcompute/incus-server.crt" >/dev/null
  incus file push "$dir/agentcompute.yaml" "$ct/etc/agentcompute/agentcompute.yaml" >/dev/null
  incus file push --mode 0600 "$dir/tokens.json" "$ct/etc/agentcompute/credentials/auth-tokens.json" >/dev/null
  incus file push --mode 0600 "$dir/tokens-secret" "$ct/etc/agentcompute/credentials/tokens-secret" >/dev/null
  incus file push --mode 0600 "$dir/client.key" "$ct/etc/agentcompute/credentials/incus-client.key" >/dev/null
}

# The TypeScript SDK client: one execute (its result as JSON), or with more URL PROGRAM pairs all
# of them sent at the same moment (a JSON array).
drive_at() { timeout 150 node tests/clients/systemd-drive.mjs "$@"; }

health_version() { # IP
  curl -fsS --max-time 5 "http://$1:8080/health/live" | sed -n 's/.*"version":"agentcompute \([^ ]*\) .*/\1/p'
}
wait_ready_at() { # IP VERSION
  local deadline=$((SECONDS + 120))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$1:8080/health/ready")" = 200 ] \
    && [ "$(health_version "$1")" = "$2" ]; do
    [ $SECONDS -lt $deadline ] || die "version $2 on $1 did not become ready on /health within 120 s"
    sleep 1
  done
}

unit_journal() { # CT [LINES]
  timeout 30 incus exec "$1" -- journalctl -u agentcompute --no-pager -n "${2:-60}" 2>/dev/null | sed "s/^/[journal $1] /" >&2
}
