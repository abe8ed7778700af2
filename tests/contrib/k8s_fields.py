#!/usr/bin/env python3
"""Check contrib/k8s manifests against the documented fields of the Kubernetes API (v1.32
reference: ConfigMap, PersistentVolumeClaim, Job and the PodSpec parts they use) and against what
the fleet calibration needs: an Indexed Job with one pod per node, a GPU resource request, a node
selector, the shared volume, and names that refer to objects defined in the file.
Usage: k8s_fields.py FILE.yaml  (prints one line per problem; exit 1 when there is one)."""
import sys

import yaml

TEXT, INT, BOOL, QUANTITY, STRMAP = "text", "int", "bool", "quantity", "strmap"

META = {"name": TEXT, "namespace": TEXT, "labels": STRMAP, "annotations": STRMAP}
SELECTOR = {"matchLabels": STRMAP, "matchExpressions": [{"key": TEXT, "operator": TEXT,
                                                         "values": [TEXT]}]}
RESOURCES = {"requests": {"*": QUANTITY}, "limits": {"*": QUANTITY}}
ENV = {"name": TEXT, "value": TEXT, "valueFrom": {
    "fieldRef": {"fieldPath": TEXT, "apiVersion": TEXT},
    "configMapKeyRef": {"name": TEXT, "key": TEXT, "optional": BOOL},
    "secretKeyRef": {"name": TEXT, "key": TEXT, "optional": BOOL},
    "resourceFieldRef": {"resource": TEXT, "containerName": TEXT, "divisor": QUANTITY}}}
CONTAINER = {
    "name": TEXT, "image": TEXT, "imagePullPolicy": TEXT, "command": [TEXT], "args": [TEXT],
    "workingDir": TEXT, "env": [ENV],
    "envFrom": [{"prefix": TEXT, "configMapRef": {"name": TEXT, "optional": BOOL},
                 "secretRef": {"name": TEXT, "optional": BOOL}}],
    "resources": RESOURCES,
    "volumeMounts": [{"name": TEXT, "mountPath": TEXT, "readOnly": BOOL, "subPath": TEXT}],
    "securityContext": {"runAsUser": INT, "runAsGroup": INT, "runAsNonRoot": BOOL,
                        "readOnlyRootFilesystem": BOOL, "allowPrivilegeEscalation": BOOL},
}
AFFINITY_TERM = {"topologyKey": TEXT, "labelSelector": SELECTOR, "namespaces": [TEXT]}
POD_SPEC = {
    "restartPolicy": TEXT, "nodeSelector": STRMAP, "serviceAccountName": TEXT,
    "tolerations": [{"key": TEXT, "operator": TEXT, "value": TEXT, "effect": TEXT,
                     "tolerationSeconds": INT}],
    "affinity": {"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [AFFINITY_TERM],
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": INT, "podAffinityTerm": AFFINITY_TERM}]}},
    "topologySpreadConstraints": [{"maxSkew": INT, "topologyKey": TEXT,
                                   "whenUnsatisfiable": TEXT, "labelSelector": SELECTOR,
                                   "minDomains": INT}],
    "containers": [CONTAINER], "initContainers": [CONTAINER],
    "volumes": [{"name": TEXT, "persistentVolumeClaim": {"claimName": TEXT, "readOnly": BOOL},
                 "emptyDir": {"medium": TEXT, "sizeLimit": QUANTITY},
                 "configMap": {"name": TEXT}}],
    "terminationGracePeriodSeconds": INT,
}
JOB_SPEC = {
    "completionMode": TEXT, "completions": INT, "parallelism": INT, "backoffLimit": INT,
    "backoffLimitPerIndex": INT, "activeDeadlineSeconds": INT, "ttlSecondsAfterFinished": INT,
    "template": {"metadata": META, "spec": POD_SPEC},
}
KINDS = {
    ("v1", "ConfigMap"): {"metadata": META, "data": STRMAP},
    ("v1", "PersistentVolumeClaim"): {"metadata": META, "spec": {
        "accessModes": [TEXT], "storageClassName": TEXT, "volumeMode": TEXT,
        "resources": RESOURCES}},
    ("batch/v1", "Job"): {"metadata": META, "spec": JOB_SPEC},
}
ENUMS = {
    "restartPolicy": {"Never", "OnFailure"}, "completionMode": {"Indexed", "NonIndexed"},
    "whenUnsatisfiable": {"DoNotSchedule", "ScheduleAnyway"},
    "operator": {"Exists", "Equal", "In", "NotIn", "DoesNotExist"},
    "effect": {"NoSchedule", "PreferNoSchedule", "NoExecute"},
    "accessModes": {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"},
}
GPU_RESOURCES = {"nvidia.com/gpu", "amd.com/gpu"}

problems = []


def check(value, schema, path):
    """Report keys the schema does not document and values of the wrong type."""
    key = path.rsplit(".", 1)[-1].split("[")[0]
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            problems.append(f"{path}: expected an object")
            return
        for k, v in value.items():
            sub = schema.get(k, schema.get("*"))
            if sub is None:
                problems.append(f"{path}.{k}: not a documented field")
            else:
                check(v, sub, f"{path}.{k}")
    elif isinstance(schema, list):
        if not isinstance(value, list):
            problems.append(f"{path}: expected a list")
            return
        for i, item in enumerate(value):
            check(item, schema[0], f"{path}[{i}]")
    elif schema == STRMAP:
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            problems.append(f"{path}: expected a map of strings (quote numbers and booleans)")
    elif schema == INT and (not isinstance(value, int) or isinstance(value, bool)):
        problems.append(f"{path}: expected an integer")
    elif schema == BOOL and not isinstance(value, bool):
        problems.append(f"{path}: expected true or false")
    elif schema == QUANTITY and not isinstance(value, (int, str)):
        problems.append(f"{path}: expected a quantity")
    elif schema == TEXT and not isinstance(value, str):
        problems.append(f"{path}: expected a string")
    if key in ENUMS and isinstance(value, str) and value not in ENUMS[key]:
        problems.append(f"{path}: {value!r} is not one of {sorted(ENUMS[key])}")


def check_job(name, spec, claims, config_maps):
    """What a calibration or merge Job needs beyond valid fields."""
    pod = spec.get("template", {}).get("spec", {})
    where = f"Job {name}"
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for v in volumes.values():
        claim = v.get("persistentVolumeClaim", {}).get("claimName")
        if claim is not None and claim not in claims:
            problems.append(f"{where}: volume {v['name']} claims {claim!r}, not defined here")
    for c in pod.get("containers", []):
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                problems.append(f"{where}: mount {m['name']!r} has no volume")
        refs = [e["valueFrom"]["configMapKeyRef"]["name"] for e in c.get("env", [])
                if "configMapKeyRef" in e.get("valueFrom", {})]
        refs += [e["configMapRef"]["name"] for e in c.get("envFrom", []) if "configMapRef" in e]
        for ref in refs:
            if ref not in config_maps:
                problems.append(f"{where}: ConfigMap {ref!r} is not defined here")
    if "/fleet" not in [m["mountPath"] for c in pod.get("containers", [])
                        for m in c.get("volumeMounts", [])]:
        problems.append(f"{where}: the shared volume is not mounted at /fleet")
    limits = {k for c in pod.get("containers", []) for k in c.get("resources", {}).get("limits", {})}
    if not (limits & GPU_RESOURCES):
        return  # the merge Job needs no GPU
    if spec.get("completionMode") != "Indexed":
        problems.append(f"{where}: a calibration Job must be Indexed")
    if spec.get("completions") != spec.get("parallelism"):
        problems.append(f"{where}: completions and parallelism differ (one pod per node at once)")
    if not pod.get("nodeSelector"):
        problems.append(f"{where}: no nodeSelector for GPU nodes")
    spread = [t for t in pod.get("topologySpreadConstraints", [])
              if t.get("topologyKey") == "kubernetes.io/hostname" and t.get("maxSkew") == 1]
    if not spread:
        problems.append(f"{where}: pods are not spread one per node (kubernetes.io/hostname)")
    for c in pod.get("containers", []):
        res = c.get("resources", {})
        for gpu in limits & GPU_RESOURCES:
            if res.get("requests", {}).get(gpu, res.get("limits", {}).get(gpu)) != \
                    res.get("limits", {}).get(gpu):
                problems.append(f"{where}: {gpu} requests and limits differ")
        command = " ".join(c.get("command", []) + c.get("args", []))
        if "gpuplan calibrate" not in command or "--export" not in command:
            problems.append(f"{where}: the container does not run gpuplan calibrate --export")


def main(path):
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    names = {kind: {d.get("metadata", {}).get("name") for d in docs if d.get("kind") == kind}
             for kind in ("PersistentVolumeClaim", "ConfigMap")}
    jobs = 0
    for i, doc in enumerate(docs):
        kind = (doc.get("apiVersion"), doc.get("kind"))
        where = f"{path}: document {i + 1} ({kind[1]})"
        schema = KINDS.get(kind)
        if schema is None:
            problems.append(f"{where}: {kind[0]}/{kind[1]} is not a kind this check knows")
            continue
        rest = {k: v for k, v in doc.items() if k not in ("apiVersion", "kind")}
        check(rest, schema, where)
        if kind[1] == "Job":
            jobs += 1
            check_job(doc["metadata"]["name"], doc.get("spec", {}),
                      names["PersistentVolumeClaim"], names["ConfigMap"])
    if jobs == 0:
        problems.append(f"{path}: no Job")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
