FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TANZAKU_DATABASE_PATH=/data/tanzaku.db

RUN useradd --create-home --uid 10001 tanzaku \
    && mkdir /data && chown tanzaku:tanzaku /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install .

USER tanzaku
VOLUME ["/data"]

# --check validates the settings and opens (migrating if needed) the database.
HEALTHCHECK --interval=60s --timeout=10s --start-period=20s --retries=3 \
    CMD ["python", "-m", "bot", "--check"]

# `docker stop` sends SIGTERM: the bot finishes the action in flight, closes the database
# and exits 0.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
