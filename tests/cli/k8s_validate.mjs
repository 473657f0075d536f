// k8s_validate.mjs DIR FILE.json... - validate Kubernetes objects (JSON, one array of documents a file)
// against the Kubernetes API's JSON schemas as compiled by the npm package kubernetes-models (DIR is
// where scripts/setup.sh --k8s installed it).  Prints one line per object; exit 1 if any is invalid
// or of a kind this script does not map.
import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [dir, ...files] = process.argv.slice(2);
const models = {
  "batch/v1 Job": "batch/v1/Job.js",
  "v1 PersistentVolumeClaim": "v1/PersistentVolumeClaim.js",
};
let bad = 0;
for (const f of files) {
  for (const doc of JSON.parse(fs.readFileSync(f, "utf8"))) {
    const rel = models[`${doc.apiVersion} ${doc.kind}`];
    if (!rel) {
      console.log(`${f}: ${doc.apiVersion} ${doc.kind}: no schema mapped`);
      bad++;
      continue;
    }
    const mod = await import(pathToFileURL(path.join(dir, "node_modules/kubernetes-models", rel)).href);
    try {
      new mod[doc.kind](doc).validate();
      console.log(`${f}: ${doc.kind} ${doc.metadata.name}: valid`);
    } catch (e) {
      console.log(`${f}: ${doc.kind} ${doc.metadata && doc.metadata.name}: ${e.message}`);
      bad++;
    }
  }
}
process.exit(bad ? 1 : 0);
