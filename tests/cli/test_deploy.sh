# test_deploy.sh - issue 21: deploy/ as far as it can be tested here.  The Kubernetes manifests are
# validated against the Kubernetes API schemas (npm kubernetes-models, scripts/setup.sh --k8s) and
# their shard wiring is checked by reading them and by running their commands as written (paths
# mapped into $TMP) for every completion index, then the merge Job's; the Dockerfile is read with
# prc's own Dockerfile extractor.  Nothing here needs a cluster, a registry or the network.

K8S_DIR=${PRC_K8S_SCHEMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prc-test/k8s}
KDIR=deploy/kubernetes

# yaml2json FILE OUT: every document of FILE as one JSON array.
yaml2json() {
        /usr/bin/python3 -c 'import json,sys,yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), open(sys.argv[2], "w"))' "$1" "$2"
}

t_kubernetes_manifests_validate_against_the_kubernetes_schema() {
        if [ ! -f "$K8S_DIR/node_modules/kubernetes-models/batch/v1/Job.js" ]; then
                echo "    the Kubernetes schemas are absent ($K8S_DIR; run scripts/setup.sh --k8s):" \
                     "the manifests were not validated" >&2
                [ "${CI:-}" = "true" ] && return 1
                return 0
        fi
        yaml2json $KDIR/batch-job.yaml "$TMP/batch.json"
        yaml2json $KDIR/merge-job.yaml "$TMP/merge.json"
        run node tests/cli/k8s_validate.mjs "$K8S_DIR" "$TMP/batch.json" "$TMP/merge.json"
        expect_rc 0
        expect_out "Job prc-batch: valid"
        expect_out "PersistentVolumeClaim prc-state: valid"
        expect_out "Job prc-batch-merge: valid"
        # the validator is not vacuous
        /usr/bin/python3 - "$TMP/batch.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d[1]["spec"]["completionMode"] = "Indexd"
d[1]["spec"]["completions"] = "8"
json.dump(d, open(sys.argv[1], "w"))
PY
        run node tests/cli/k8s_validate.mjs "$K8S_DIR" "$TMP/batch.json"
        expect_rc 1
        expect_out "completionMode must be equal to one of the allowed values"
}

t_kubernetes_shard_wiring() {
        # read: Indexed, one count everywhere, the index in --shard and in the state dir, one volume
        /usr/bin/python3 - $KDIR/batch-job.yaml $KDIR/merge-job.yaml <<'PY' || fail "wiring"
import shlex, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
pvc = next(d for d in docs if d["kind"] == "PersistentVolumeClaim")
job = next(d for d in docs if d["kind"] == "Job")
merge = yaml.safe_load(open(sys.argv[2]))
spec = job["spec"]
assert spec["completionMode"] == "Indexed"
n = spec["completions"]
assert spec["parallelism"] == n
c = spec["template"]["spec"]["containers"][0]
env = {e["name"]: e.get("value") for e in c["env"]}
assert "JOB_COMPLETION_INDEX" not in env, "set by the Job controller; a value here would hide it"
assert int(env["PRC_SHARDS"]) == n
words = shlex.split(c["args"][0].split(";")[0])
assert words[1] == "batch"
arg = {words[i]: words[i + 1] for i in range(2, len(words) - 1) if words[i].startswith("--")}
assert arg["--shard"] == "$JOB_COMPLETION_INDEX/$PRC_SHARDS", arg
assert arg["--state-dir"] == "/data/shards/$JOB_COMPLETION_INDEX", arg
assert arg["--targets"].startswith("/data/")
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
vols = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in spec["template"]["spec"]["volumes"]}
assert mounts == {"state": "/data"} and vols == {"state": pvc["metadata"]["name"]}
assert "ReadWriteMany" in pvc["spec"]["accessModes"]
sc = job["spec"]["template"]["spec"]["securityContext"]
assert sc["runAsNonRoot"] and sc["runAsUser"] != 0
mc = merge["spec"]["template"]["spec"]["containers"][0]
assert mc["args"][:4] == ["batch", "merge", "--state-dir", "/data/merged"], mc["args"]
assert mc["args"][4:] == [f"/data/shards/{i}" for i in range(n)], "the merge lists every shard once"
mv = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in merge["spec"]["template"]["spec"]["volumes"]}
assert {m["name"]: m["mountPath"] for m in mc["volumeMounts"]} == {"state": "/data"} and mv == vols
PY
        # run: each pod's command as written, then the merge Job's, equal to one unsharded batch
        mkdir -p "$TMP/data/pk"
        local i n cmd
        for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
                printf 'pkgname=p%s\npkgver=1\npkgrel=1\narch=(any)\n' $i >"$TMP/p$i"
                mkdir -p "$TMP/data/pk/p$i" && cp "$TMP/p$i" "$TMP/data/pk/p$i/PKGBUILD"
                echo "pk/p$i" >>"$TMP/data/targets.txt"
        done
        n=$(/usr/bin/python3 -c 'import sys,yaml; print([d for d in yaml.safe_load_all(open(sys.argv[1])) if d["kind"]=="Job"][0]["spec"]["completions"])' $KDIR/batch-job.yaml)
        cmd=$(/usr/bin/python3 -c 'import sys,yaml; print([d for d in yaml.safe_load_all(open(sys.argv[1])) if d["kind"]=="Job"][0]["spec"]["template"]["spec"]["containers"][0]["args"][0])' $KDIR/batch-job.yaml)
        cmd=${cmd//\/opt\/prc\/build\/prc/$PRC}
        cmd=${cmd//\/data/$TMP/data}
        for i in $(seq 0 $((n - 1))); do
                JOB_COMPLETION_INDEX=$i PRC_SHARDS=$n sh -c "$cmd" 2>>"$TMP/err" || fail "pod $i: $(cat "$TMP/err")"
        done
        mapfile -t margs < <(/usr/bin/python3 -c 'import sys,yaml; print("\n".join(yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]["containers"][0]["args"]))' $KDIR/merge-job.yaml)
        run "$PRC" "${margs[@]//\/data/$TMP/data}"
        expect_rc 0
        run "$PRC" batch --profile prc/aur --targets "$TMP/data/targets.txt" --state-dir "$TMP/whole"
        cmp "$TMP/whole/index.json" "$TMP/data/merged/index.json" || fail "the Job's merged index differs from one unsharded run"
}

t_dockerfile_pins_its_base_by_digest_and_runs_prc_as_non_root() {
        run "$PRC" content extract deploy/Dockerfile
        expect_rc 0
        printf '%s' "$OUT" >"$TMP/df.json"
        /usr/bin/python3 - "$TMP/df.json" <<'PY' || fail "Dockerfile"
import json, re, sys
d = json.load(open(sys.argv[1]))["details"]
for st in d["stages"]:
    if st["from_stage"] is None:
        assert re.fullmatch(r"sha256:[0-9a-f]{64}", st["image"]["digest"] or ""), st["base"]
        assert st["image"]["repository"] == "library/debian", st["base"]
final = d["stages"][d["final_stage"]]
user = final["user"]["value"]
uid = user.split(":")[0]
assert uid.isdigit() and int(uid) != 0, user
ins = [i["instruction"] for i in final["instructions"]]
assert ins.index("USER") < ins.index("ENTRYPOINT")
ep = next(i for i in final["instructions"] if i["instruction"] == "ENTRYPOINT")
assert ep["form"] == "exec" and ep["exec"] == ["/opt/prc/build/prc"], ep
PY
}
