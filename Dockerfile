# The bot with the PostgreSQL extra; used by compose.yaml (docker compose up).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY renderer renderer
COPY bot bot
RUN pip install --no-cache-dir ".[postgres]"
CMD ["python", "-m", "bot"]
