# Tavolo's production image: docker build -t tavolo .   (compose.yaml builds it too)
#
# Two stages. "build" has a C compiler: it turns uv.lock into a hashed requirements list and
# builds Tavolo's wheel with the solvers' C parts (setup.py; the build fails if they did not
# compile, rather than ship the slow pure-Python solvers). The runtime stage has no compiler
# and no build tools: it installs exactly the locked runtime set (the PostgreSQL driver
# included; no test tool), then the wheel, and runs as an unprivileged user.
# Dependencies come before the source in both stages, so a code change rebuilds only the
# wheel's layers, not the packages'.
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
# uv, pinned as in the Makefile, in a venv of its own (later mounted into the runtime stage for
# one command, never copied into it)
RUN python -m venv /opt/uv && /opt/uv/bin/pip install --no-cache-dir uv==0.13.9
WORKDIR /src
COPY pyproject.toml uv.lock ./
RUN /opt/uv/bin/uv export --locked --no-dev --extra postgres --no-emit-project \
        --format requirements.txt --output-file /dist/requirements.txt
COPY setup.py MANIFEST.in README.md ./
COPY engine engine
COPY renderer renderer
COPY bot bot
RUN /opt/uv/bin/uv build --wheel --out-dir /dist \
    && python -c "import glob, sys, zipfile; \
names = zipfile.ZipFile(glob.glob('/dist/tavolo-*.whl')[0]).namelist(); \
missing = [m for m in ('_cardsets', '_canfield', '_freecell') \
           if not any(n.startswith('engine/solvers/' + m) and n.endswith('.so') for n in names)]; \
sys.exit(f'the C solvers did not compile: {missing}' if missing else 0)"

FROM python:${PYTHON_VERSION}-slim
ENV PYTHONUNBUFFERED=1 \
    PATH=/opt/tavolo/bin:$PATH \
    HTTP_HOST=0.0.0.0 \
    HTTP_PORT=8080
RUN useradd --system --user-group --uid 10001 --home-dir /app --no-create-home tavolo \
    && mkdir -p /app/data \
    && chown tavolo:tavolo /app/data \
    && python -m venv --without-pip /opt/tavolo
COPY --from=build /dist/requirements.txt /tmp/requirements.txt
RUN --mount=type=bind,from=build,source=/opt/uv,target=/opt/uv \
    /opt/uv/bin/uv pip install --python /opt/tavolo/bin/python --no-cache --compile-bytecode \
        --require-hashes --requirement /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY --from=build /dist/ /tmp/dist/
RUN --mount=type=bind,from=build,source=/opt/uv,target=/opt/uv \
    /opt/uv/bin/uv pip install --python /opt/tavolo/bin/python --no-cache --compile-bytecode \
        --no-deps /tmp/dist/tavolo-*.whl \
    && rm -rf /tmp/dist
USER tavolo
WORKDIR /app
# the SQLite database (DATABASE_URL's default, sqlite:///data/tavolo.db)
VOLUME ["/app/data"]
# the HTTP server: /livez, /readyz, /healthz, /metrics and the web page
EXPOSE 8080
# liveness only (the process answers): a database or platform outage must not get the
# container restarted; readiness (/readyz) is for a load balancer
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/livez' % os.environ.get('HTTP_PORT', '8080'), timeout=4)"]
# SIGTERM: the bot finishes the requests in hand and flushes its outboxes (up to 20 s)
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
