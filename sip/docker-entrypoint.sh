#!/bin/sh
# The container's Kamailio parameters, from the environment (docker-compose.yml), then Kamailio.
#   INTERNAL_SECRET        shared with the API and the media workers (required; ADR 0019)
#   SIP_CONTACT_ADDR       host:port carriers reach this Kamailio at (registrations' Contact), default kamailio:5060
#   API_INTERNAL_HOSTPATH  the API's internal listener, default api:4001/internal/sip
#   API_INTERNAL_HOSTPATH_2  a second API instance's (docs/adr/0059): what the first refuses is asked there
set -eu
case "${INTERNAL_SECRET:-}" in
  '' | *[!A-Za-z0-9_-]*) echo "INTERNAL_SECRET must be set (A-Z a-z 0-9 _ -), the same value as the API's" >&2; exit 1 ;;
esac
case "${SIP_CONTACT_ADDR:-kamailio:5060}" in
  *[!A-Za-z0-9.:-]*) echo "SIP_CONTACT_ADDR must be host:port" >&2; exit 1 ;;
esac
mkdir -p /run/kamailio
umask 077
{
  echo "#!substdef \"!API_URL!http://kamailio:${INTERNAL_SECRET}@${API_INTERNAL_HOSTPATH:-api:4001/internal/sip}!g\""
  if [ -n "${API_INTERNAL_HOSTPATH_2:-}" ]; then
    echo "#!substdef \"!API2_URL!http://kamailio:${INTERNAL_SECRET}@${API_INTERNAL_HOSTPATH_2}!g\""
  fi
  echo "#!substdef \"!INTERNAL_SECRET!${INTERNAL_SECRET}!g\""
  echo "#!substdef \"!SIP_CONTACT_ADDR!${SIP_CONTACT_ADDR:-kamailio:5060}!g\""
} > /run/kamailio/tongdai-env.cfg
# -m 512: a thousand calls a second need the shared memory (64 MB ran out at 500, ADR 0011).
exec kamailio -DD -E -f /etc/kamailio/kamailio.cfg -Y /run/kamailio -m 512 -M 16 -x tlsf -X tlsf
