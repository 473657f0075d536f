#!/bin/sh
# deploy/parallel/batch-ssh.sh - prc batch over a set of hosts with GNU parallel and SSH (issue 21;
# docs/batch.md).  No scheduler or protocol of prc's own: parallel runs one `prc batch --shard I/N`
# per shard on the hosts of an sshloginfile, and prc batch merge joins the shards' state dirs.
#
#   deploy/parallel/batch-ssh.sh HOSTS LIST DATA SHARDS [PROFILE]
#
#   HOSTS   a GNU parallel sshloginfile: one host a line ("2/alice@build1" runs 2 shards at once
#           there; ":" is this machine, without SSH)
#   LIST    the target list, at the same path on every host
#   DATA    a directory at the same path on every host and here (NFS or any shared filesystem):
#           the shards write DATA/shards/I, the merge writes DATA/merged
#   SHARDS  how many shards (more than hosts, so a slow host holds back less of the batch)
#   PROFILE default prc/aur
#
# prc must be installed on every host ($PRC, default prc on the PATH).  A shard that fails
# (exit 3, a lost host) is retried by parallel (--retries) and resumes: what it wrote is reused.
# Exit 1 or 2 of a shard is a finished shard whose index records findings or malformed lines.
set -eu
[ $# -ge 4 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
HOSTS=$1 LIST=$2 DATA=$3 SHARDS=$4 PROFILE=${5:-prc/aur}
PRC=${PRC:-prc}
last=$((SHARDS - 1))
# --jobs 1 per sshlogin slot; each prc batch uses that host's cores itself (--jobs defaults to them).
# The shell wrapper turns exit 1 and 2 (a finished shard) into success and keeps 3 a failure to retry.
seq 0 "$last" | parallel --will-cite --sshloginfile "$HOSTS" --retries 3 --halt never \
        "$PRC batch --targets '$LIST' --profile '$PROFILE' --state-dir '$DATA/shards/{}' --shard {}/$SHARDS;" \
        'rc=$?; [ $rc -le 2 ] || exit $rc' || true
dirs=$(seq 0 "$last" | sed "s|^|$DATA/shards/|")
# shellcheck disable=SC2086
exec $PRC batch merge --state-dir "$DATA/merged" $dirs
