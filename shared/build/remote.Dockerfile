# One remote as an image of its own (issue 36, docs/adr/0053): `docker compose build mf-reports` builds
# and tests that remote alone (npm run release: its Jest tests, a production build, nothing else), and
# the container, when it starts, copies that release into the `releases` volume the web server reads and
# promotes it against the host that runs (scripts/publish-release.mjs; PROMOTE=0 only copies it).
# Replacing one remote is `docker compose up -d --build mf-reports`: not the web image, not the others.
FROM node:20-bookworm-slim AS build
ARG REMOTE
ARG VERSION=
WORKDIR /app
RUN npm i -g pnpm@12.21.0
COPY . .
RUN test -n "$REMOTE" && pnpm install --frozen-lockfile \
 && node scripts/release.mjs "$REMOTE" --out /release ${VERSION:+--version "$VERSION"}

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /release /release
COPY scripts/publish-release.mjs scripts/
COPY scripts/lib/publish.mjs scripts/lib/registry.mjs scripts/lib/
COPY shared/contracts/src/semver.cjs shared/contracts/src/
# As root: a one-shot copy into the named volume, which the web container (started first) created root-owned.
CMD ["node", "scripts/publish-release.mjs"]
