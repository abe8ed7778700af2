# Checks a calibration export (gpuplan's JSON, one key per line) against the datasheet in
# data/gpus.json and prints the summary of scripts/gpu-check.sh.
# Usage: awk -f gpu-check.awk data/gpus.json EXPORT.json
# A bad point: a median that is not a finite positive number, a failed verification
# (max_error above 1 or not finite), or an efficiency (median / dense datasheet peak, computed
# here at full precision) above 1. Exits 1 with bad points, or without a triad point or a bf16
# point from the vendor library.

# "key": value -> key in K, value (no trailing comma, quotes stripped) in V; 0 when no key.
function keyval(line) {
    if (!match(line, /"[A-Za-z0-9_]+":[ \t]*/))
        return 0
    K = substr(line, RSTART + 1, RLENGTH - 1)
    sub(/":[ \t]*$/, "", K)
    V = substr(line, RSTART + RLENGTH)
    sub(/,[ \t]*$/, "", V)
    if (V ~ /^"/) {
        sub(/^"/, "", V)
        sub(/"$/, "", V)
    }
    return 1
}

# The value of "name" anywhere in the line (the conditions object is written on one line).
function field(line, name,    s) {
    if (!match(line, "\"" name "\":[ \t]*(\"[^\"]*\"|[-0-9.eE+]+)"))
        return ""
    s = substr(line, RSTART, RLENGTH)
    sub(/^"[^"]*":[ \t]*/, "", s)
    gsub(/"/, "", s)
    return s
}

function finite(v) {
    return v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/
}

# A value out of `{"fp64": 66.9, "fp32": 66.9, ...}` on one line.
function inline_number(line, name,    s) {
    if (!match(line, "\"" name "\": *[-0-9.eE+]+"))
        return 0
    s = substr(line, RSTART, RLENGTH)
    sub(/^[^:]*: */, "", s)
    return s + 0
}

# data/gpus.json: an entry's "id", its "peak_tflops" object (on one line or on several) and
# its "hbm_tbs" number; the same keys inside "citations" hold text, not numbers, and are passed.
FNR == NR {
    if (match($0, /"id": *"[^"]+"/)) {
        id = substr($0, RSTART, RLENGTH)
        sub(/^"id": *"/, "", id)
        sub(/"$/, "", id)
    }
    if (id != "" && $0 ~ /"peak_tflops": *\{/)
        in_peaks = 1
    if (in_peaks)
        for (p = 0; p < 6; p++)
            if ($0 ~ "\"" names[p] "\": *[-0-9]")
                peak[id, names[p]] = inline_number($0, names[p])
    if (in_peaks && $0 ~ /\}/)
        in_peaks = 0
    if (id != "" && $0 ~ /"hbm_tbs": *[0-9]/)
        peak[id, "bandwidth"] = inline_number($0, "hbm_tbs") * 1000
    next
}

BEGIN {
    split("fp64 fp32 tf32 bf16 fp16 fp8", tmp, " ")
    for (p = 1; p <= 6; p++)
        names[p - 1] = tmp[p]
}

{
    if (!keyval($0))
        next
    if (K == "fingerprint") { section = ""; runs++ }
    else if (K == "gpu_id") gpu = V
    else if (K == "device_name") device = V
    else if (K == "conditions") {
        library = field($0, "library_version")
        driver = field($0, "driver_version")
        clock = field($0, "clock_mhz_loaded")
        power = field($0, "power_w_loaded")
        limit = field($0, "power_limit_w")
    }
    else if (K == "points") section = "points"
    else if (K == "fits") section = "fits"
    if (section != "points")
        next
    pt[K] = V
    if (K != "residual")
        next
    check_point()
    delete pt
}

function check_point(    what, gemm, pk, eff, key, shape) {
    gemm = pt["kernel"] == "gemm"
    shape = gemm ? pt["m"] "x" pt["n"] "x" pt["k"] : sprintf("%.0f MiB", pt["bytes"] / 1048576)
    what = pt["kernel"] " " (gemm ? pt["precision"] " " : "") shape " (" pt["impl"] ")"
    points++
    if (!finite(pt["median"]) || pt["median"] + 0 <= 0) {
        printf "bad point: %s: median %s is not a positive number\n", what, pt["median"]
        bad++
        return
    }
    if (!finite(pt["max_error"]) || pt["max_error"] + 0 > 1) {
        printf "bad point: %s: verification error %s of the bound\n", what, pt["max_error"]
        bad++
    }
    pk = peak[gpu, gemm ? pt["precision"] : "bandwidth"] + 0
    eff = pk > 0 ? pt["median"] / pk : -1
    if (eff > 1) {
        printf "bad point: %s: %.17g is %.6f of the %s datasheet peak %.6g\n", what, pt["median"],
               eff, gpu, pk
        bad++
    }
    if (pt["kernel"] == "triad")
        triad++
    if (!gemm) {
        if (pt["bytes"] + 0 >= bw_bytes[pt["kernel"]]) {
            bw_bytes[pt["kernel"]] = pt["bytes"] + 0
            bw[pt["kernel"]] = pt["median"] + 0
            bw_eff[pt["kernel"]] = eff
        }
        return
    }
    if (pt["impl"] ~ /^own/)
        return
    if (pt["precision"] == "bf16")
        bf16++
    key = pt["precision"] (pt["impl"] ~ /fast-accum/ ? " fast-accum" : "")
    if (pt["m"] == pt["n"] && pt["n"] == pt["k"] && pt["median"] + 0 > best[key]) {
        best[key] = pt["median"] + 0
        best_eff[key] = eff
        best_at[key] = shape
        best_impl[key] = pt["impl"]
    }
    if (pt["m"] == 1 && pt["median"] + 0 > decode[key]) {
        decode[key] = pt["median"] + 0
        decode_at[key] = shape
    }
}

function share(eff) {
    return eff >= 0 ? sprintf("%5.1f%%", 100 * eff) : "   n/a"
}

END {
    printf "device     %s (%s), driver %s\n", device, gpu == "" || gpu == "null" ? "no catalog id" : gpu, driver
    printf "library    %s\n", library
    if (clock != "" || power != "")
        printf "under load %s MHz, %s W of a %s W limit\n", clock, power, limit
    printf "bandwidth "
    n = split("copy scale add triad read", kinds, " ")
    for (i = 1; i <= n; i++)
        if (kinds[i] in bw)
            printf "  %s %.0f GB/s %s", kinds[i], bw[kinds[i]], share(bw_eff[kinds[i]])
    printf "   (share of %.0f GB/s)\n", peak[gpu, "bandwidth"]
    m = split("bf16|fp8|fp8 fast-accum|fp16|tf32|fp32|fp64", order, "|")
    for (i = 1; i <= m; i++) {
        k = order[i]
        if (!(k in best))
            continue
        p = k
        sub(/ fast-accum$/, "", p)
        printf "gemm %-15s %8.1f TFLOP/s %s of %.1f dense at %s, %s", k, best[k], share(best_eff[k]),
               peak[gpu, p], best_at[k], best_impl[k]
        if (k in decode)
            printf "; decode %s %.1f TFLOP/s", decode_at[k], decode[k]
        printf "\n"
    }
    printf "points     %d in %d run(s), %d bad\n", points, runs, bad
    if (points == 0 || bad > 0 || triad == 0 || bf16 == 0) {
        if (triad == 0)
            print "missing: no triad point"
        if (bf16 == 0)
            print "missing: no bf16 point from the vendor library"
        exit 1
    }
}
