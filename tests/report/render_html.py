#!/usr/bin/python3
"""Renders mpsready's HTML plan of a sample repository in headless Chromium, offline, checks
that the page shows the verdict and the findings, and saves a screenshot.

usage: render_html.py MPSREADY_BIN REPO OUT_DIR
Fails when Debian's chromium is not installed (scripts/bootstrap installs it).
"""
import os
import shutil
import subprocess
import sys


def main(binary, repo, out_dir):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium is not installed (apt-get install chromium, or run scripts/bootstrap)")
        return 1
    os.makedirs(out_dir, exist_ok=True)
    page = os.path.abspath(os.path.join(out_dir, "report.html"))
    json_out = subprocess.run([binary, "scan", repo, "--format", "json"], capture_output=True, text=True)
    if subprocess.call([binary, "scan", repo, "--format", "html", "-o", page]) != 0:
        print("mpsready scan --format html failed")
        return 1
    common = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-extensions", "--disable-background-networking", "--disable-sync",
              "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://0.0.0.0:9",
              "--user-data-dir=" + os.path.join(out_dir, "profile")]
    dom = subprocess.run(common + ["--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120)
    shot = os.path.join(out_dir, "report.png")
    subprocess.run(common + ["--window-size=1280,2200", "--hide-scrollbars", "--screenshot=" + shot, "file://" + page],
                   capture_output=True, text=True, timeout=120)
    import json
    doc = json.loads(json_out.stdout)
    failed = []
    text = dom.stdout
    if 'id="verdict"' not in text or ">%s<" % doc["verdict"] not in text:
        failed.append("the rendered page does not show the verdict %s" % doc["verdict"])
    for f in doc["findings"]:
        if f["path"] not in text:
            failed.append("the rendered page does not show %s" % f["path"])
    for section in ('id="decision"', 'id="effort"', 'id="by-directory"', 'id="checklist"'):
        if doc["findings"] and doc["verdict"] != "mps-ready" and section not in text:
            failed.append("missing section " + section)
    if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
        failed.append("no screenshot at " + shot)
    for message in failed:
        print(message)
    print("page: %s\nscreenshot: %s" % (page, shot))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
