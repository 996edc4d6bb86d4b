# The paylink sandbox as an image (docs/drop-in.md, "Compose"). Built from a checkout that is built and holds
# production dependencies only, so the build needs no registry:
#   npm ci && npm run build && npm prune --omit=dev && docker build -t paylink .
# BASE: any image with Node 20 at /usr/local/bin/node or on PATH (node:20-bookworm-slim by default; a local
# base made with debootstrap, or a root holding the host's node and its libraries, works offline).
ARG BASE=node:20-bookworm-slim
FROM ${BASE}

ENV NODE_ENV=production \
    XDG_CONFIG_HOME=/config \
    PAYLINK_HEALTH_URL=http://127.0.0.1:8417

COPY package.json /app/package.json
COPY bin /app/bin
COPY dist /app/dist
COPY node_modules /app/node_modules

# /data holds the database (and the discovery entry); /config/paylink/ca is where a mounted authority goes.
# Exec form with node, so a base without a shell builds too.
RUN ["node", "-e", "const fs=require('fs');for(const d of ['/data','/config/paylink'])fs.mkdirSync(d,{recursive:true}),fs.chownSync(d,10001,10001)"]
VOLUME ["/data"]
WORKDIR /data
USER 10001:10001
EXPOSE 8417

HEALTHCHECK --interval=10s --timeout=6s --start-period=5s --retries=3 CMD ["node", "/app/bin/healthcheck.js"]

ENTRYPOINT ["node", "/app/bin/paylink.js"]
CMD ["sandbox", "--host", "0.0.0.0", "--port", "8417", "--db", "/data/sandbox.db"]
