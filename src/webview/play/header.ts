// The panel header: title and the play-through's name, narrator chip, skills health strip, Continue…, New Game, Save as Playtest and Show Logs; posts requests, decides nothing itself.
import type { FromPlayWebview, NarratorStatusView, SkillHealthView, SkillSummaryView } from '../../protocol/playPanelMessages.js';
import { PlayPanelTestId } from '../../protocol/playPanelDom.js';
import { codicon, el } from '../common/dom.js';
import { button } from './playElements.js';

const healthLook: Record<SkillHealthView, { readonly icon: string; readonly label: string }> = {
  healthy: { icon: 'circle-filled', label: 'healthy' },
  degraded: { icon: 'warning', label: 'degraded' },
  unusable: { icon: 'error', label: 'unusable' },
  disabled: { icon: 'circle-slash', label: 'disabled' },
};

const narratorIcon: Record<NarratorStatusView['state'], readonly [string, ...string[]]> = {
  pattern: ['symbol-misc'],
  idle: ['circle-large-outline'],
  loading: ['loading', 'spin'],
  ready: ['sparkle'],
  downloading: ['cloud-download'],
  failed: ['warning'],
};

export class Header {
  readonly element: HTMLElement;
  private readonly narratorChip: HTMLElement;
  private readonly skillsStrip: HTMLElement;
  private readonly sessionName: HTMLElement;

  constructor(private readonly post: (message: FromPlayWebview) => void) {
    this.narratorChip = el('span', { className: 'narrator-chip', testId: PlayPanelTestId.narratorStatus, attrs: { tabindex: '0', role: 'status' } });
    this.skillsStrip = el('div', { className: 'skills-strip', attrs: { role: 'group', 'aria-label': 'Skills' } });
    this.sessionName = el('span', { className: 'session-name', testId: PlayPanelTestId.sessionName });
    this.element = el(
      'header',
      { className: 'panel-header' },
      el('h1', { className: 'panel-title' }, codicon('book'), el('span', { className: 'panel-title-text' }, 'Narratoria'), this.sessionName),
      this.narratorChip,
      this.skillsStrip,
      el(
        'div',
        { className: 'header-actions' },
        button({
          label: 'Continue…',
          icon: 'history',
          testId: PlayPanelTestId.continueButton,
          title: "Continue a saved play-through: pick one of the story's sessions",
          className: 'header-button',
          onClick: () => this.post({ type: 'chooseSession' }),
        }),
        button({
          label: 'New Game',
          icon: 'add',
          testId: PlayPanelTestId.newGameButton,
          title: 'Start a new play-through; this one stays saved and Continue… lists it',
          className: 'header-button',
          onClick: () => this.post({ type: 'newGame' }),
        }),
        button({
          label: 'Save as Playtest',
          icon: 'beaker',
          title: 'Save this session as a playtest: its turns replayed and checked in the Testing view and by narratoria test',
          className: 'header-button',
          onClick: () => this.post({ type: 'saveAsPlaytest' }),
        }),
        button({
          label: 'Show Logs',
          icon: 'output',
          title: 'Show the Narratoria output channel',
          className: 'header-button',
          onClick: () => this.post({ type: 'showLogs' }),
        }),
      ),
    );
  }

  /** Shows the current play-through's name (its folder under .narratoria/sessions). */
  setSession(name: string): void {
    this.sessionName.textContent = name;
    this.sessionName.title = `Play-through "${name}" (.narratoria/sessions/${name})`;
  }

  setNarrator(narrator: NarratorStatusView): void {
    const [icon, ...modifiers] = narratorIcon[narrator.state];
    const percent = narrator.state === 'downloading' && narrator.percent !== undefined ? Math.max(0, Math.min(100, Math.round(narrator.percent))) : undefined;
    this.narratorChip.dataset['state'] = narrator.state;
    this.narratorChip.title = narrator.detail;
    this.narratorChip.setAttribute('aria-label', `Narrator: ${narrator.label}${percent !== undefined ? `, ${percent}%` : ''}. ${narrator.detail}`);
    const children: HTMLElement[] = [
      codicon(icon, modifiers.map((modifier) => `codicon-modifier-${modifier}`).join(' ')),
      el('span', { className: 'narrator-label' }, narrator.label),
    ];
    if (percent !== undefined) {
      const bar = el('progress', { className: 'narrator-progress', attrs: { max: '100', value: String(percent), 'aria-hidden': 'true' } });
      children.push(el('span', { className: 'narrator-percent' }, `${percent}%`), bar);
    }
    this.narratorChip.replaceChildren(...children);
  }

  /** Dots per skill; unhealthy skills also show their name so a problem is visible at a glance. */
  setSkills(skills: readonly SkillSummaryView[]): void {
    if (skills.length === 0) {
      this.skillsStrip.replaceChildren(el('span', { className: 'skills-empty' }, 'No skills'));
      return;
    }
    const sorted = [...skills].sort((a, b) => Number(a.health === 'healthy') - Number(b.health === 'healthy') || a.displayName.localeCompare(b.displayName));
    this.skillsStrip.replaceChildren(
      el('span', { className: 'skills-label' }, 'Skills'),
      ...sorted.map((skill) => {
        const look = healthLook[skill.health];
        const item = el(
          'button',
          {
            className: `skill-dot health-${skill.health}`,
            title: `${skill.displayName} (${skill.name}): ${look.label}${skill.reason ? ` (${skill.reason})` : ''}. Click to open the skill.`,
            data: { skill: skill.name, health: skill.health },
            attrs: { type: 'button', 'aria-label': `${skill.displayName}: ${look.label}${skill.reason ? `, ${skill.reason}` : ''}` },
          },
          codicon(look.icon),
          skill.health !== 'healthy' ? el('span', { className: 'skill-name' }, skill.displayName) : null,
        );
        item.addEventListener('click', () => this.post({ type: 'openSkill', skill: skill.name }));
        return item;
      }),
    );
  }
}
