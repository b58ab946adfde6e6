import { Badge, Text, mergeClasses } from '@fluentui/react-components';
import { MONITOR_LABELS as L, abandonRate, type CampaignLive } from '@tongdai/contracts';
import { Figure } from './QueuesPanel';
import { useMonitorStyles } from './styles';

const percent = new Intl.NumberFormat('vi-VN', { style: 'percent', maximumFractionDigits: 1 });

/**
 * One tile per dialer campaign running or paused (issue 34): its calls dialling and connected now, its
 * agents ready, the contacts who answered and the abandoned rate as regulators count it (abandoned /
 * answered), and how much of its hotline's calls-per-minute cap the last minute used. The top border:
 * green while running, amber once abandons pass 2 %, red at 3 % (the regulators' limit); grey when paused.
 * An automated voice survey has no agents and abandons nobody: its calls up and the contacts who answered.
 */
export function CampaignsPanel({ campaigns, wallboard }: { campaigns: CampaignLive[]; wallboard: boolean }) {
  const s = useMonitorStyles();
  return (
    <div className={mergeClasses(s.tiles, wallboard && s.wallTiles)}>
      {campaigns.map((c) => {
        const d = c.dialer;
        const voice = c.mode === 'voice';
        const rate = voice ? 0 : abandonRate(d);
        const tone = c.state === 'paused' ? 'offline' : rate >= 0.03 ? 'red' : rate > 0.02 ? 'amber' : 'green';
        const big = wallboard ? s.huge : s.big;
        return (
          <div key={c.campaign_id} className={mergeClasses(s.tile, s[tone])} data-testid="campaign-tile" data-campaign-id={c.campaign_id} data-tone={tone}>
            <div className={s.waiting}>
              <Text weight="semibold" size={500}>{c.name}</Text>
              <span>
                <Badge appearance="tint" data-testid="campaign-mode">{L.campaignModes[c.mode]}</Badge>
                {c.state === 'paused' && <Badge appearance="tint" color="warning" data-testid="campaign-paused">{L.campaignPaused}</Badge>}
              </span>
            </div>
            <div className={s.figures}>
              <Figure label={L.dialing} value={d.calling} testId="campaign-calling" big={big} />
              {!voice && <Figure label={L.connected} value={d.talking} testId="campaign-talking" big={big} />}
              {!voice && <Figure label={L.agentsReady} value={d.ready} testId="campaign-ready" big={big} />}
              <Figure label={L.contactsAnswered} value={d.answered} testId="campaign-answered" big={voice ? big : undefined} />
              {!voice && <Figure label={L.dialerAbandoned} value={`${percent.format(rate)} (${d.abandoned})`} testId="campaign-abandoned" />}
              {d.hotline_minute && <Figure label={L.hotlineMinute} value={`${d.hotline_minute.started}/${d.hotline_minute.cap}`} testId="campaign-hotline-minute" />}
            </div>
          </div>
        );
      })}
    </div>
  );
}
