# The Stawvs bot for Abstract Play (stawvs-ap ap-bot) in a container.
# docs/abstract-play-bot.md says how to build and run it:
#   docker build -t stawvs-ap-bot .
#   docker run -d --env-file ap-bot.env -p 8080:8080 -v stawvs-ap-bot:/var/lib/stawvs-ap stawvs-ap-bot
# Settings come from the environment (or --env-file, BOT_CLIENT_SECRET_FILE for a
# mounted secret); the journal lives on the volume, so a new container resumes it.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md LICENSE MANIFEST.in ./
COPY stawvs_ap ./stawvs_ap
COPY schemas ./schemas
RUN pip install ".[ap-bot]" && rm -rf /src

# A user of its own, not root; the journal's folder is the one thing it writes.
RUN useradd --system --uid 10001 --home-dir /var/lib/stawvs-ap --create-home stawvs \
    && chmod 700 /var/lib/stawvs-ap
USER stawvs
WORKDIR /var/lib/stawvs-ap
VOLUME ["/var/lib/stawvs-ap"]

EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/', timeout=4)"]

# SIGTERM (docker stop) stops the bot cleanly within 15 s: give it that long
# (docker stop --time 20, or stop_grace_period in a compose file).
STOPSIGNAL SIGTERM
ENTRYPOINT ["stawvs-ap", "ap-bot"]
CMD ["--http", "0.0.0.0:8080", "--journal", "/var/lib/stawvs-ap/ap-bot.sqlite3"]
