FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TANZAKU_DATABASE_PATH=/data/tanzaku.db

# Metrics (once TANZAKU_METRICS_PORT is set) reachable from outside the container.
ENV TANZAKU_METRICS_HOST=0.0.0.0

RUN useradd --create-home --uid 10001 tanzaku \
    && mkdir /data && chown tanzaku:tanzaku /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

USER tanzaku
VOLUME ["/data"]

# --check validates the settings, opens (migrating if needed) the database, checks its
# integrity and proves it can be written (a write rolled back): a corrupt, read-only or
# missing volume makes it exit 1 with one line, which `docker inspect` shows.
HEALTHCHECK --interval=60s --timeout=10s --start-period=20s --retries=3 \
    CMD ["python", "-m", "bot", "--check"]

# `docker stop` sends SIGTERM: the bot stops its timers, lets the clicks in flight finish
# (8 s at most, inside docker's 10 s before SIGKILL), closes the database and exits 0.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
