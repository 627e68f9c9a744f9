# Solitaire Rush for Discord in a container (docs/deploy.md, "Docker"): docker compose up -d, with compose.yaml.
# The settings come from the environment (compose passes .env); the data lives in the /data volume.
# tests/test_deploy_files.py lints this file with hadolint and runs its pip step in a throwaway venv.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY solitaire/ solitaire/
COPY render/ render/
COPY bot/ bot/
COPY cogs/ cogs/
COPY languages/ languages/
# The project with its PostgreSQL driver; dependency versions are the ranges in pyproject.toml.
RUN pip install --no-cache-dir "./[postgres]"

RUN useradd --system --uid 10001 --user-group --create-home solitaire \
    && mkdir /data \
    && chown solitaire:solitaire /data
USER 10001:10001
WORKDIR /data
# METRICS_PORT: the /health the HEALTHCHECK below asks (on 127.0.0.1, inside the container).
# ON_BAD_SETTING=wait: a bad setting or token waits for a stop instead of exiting into a restart loop.
ENV DATABASE_PATH=/data/solitaire.db \
    METRICS_PORT=9108 \
    ON_BAD_SETTING=wait
VOLUME ["/data"]
# Healthy once connected to Discord with a database that answers (/health: 200, else 503 or no answer).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ['METRICS_PORT'] + '/health', timeout=4)"]
# SIGTERM stops the bot cleanly: every move is already saved, running games resume at the next start.
STOPSIGNAL SIGTERM
ENTRYPOINT ["solitaire-bot"]
