// Prints the figures of a told corpus (issue 38) and, with --turns, each turn that missed: `node --import tsx test/narrator/toldReport.ts told-dev [--turns]`. A frozen held-out corpus is measured with its totals only.
import { playToldCorpus, summarise, summaryLine } from './toldKit.js';

const [name = 'told-dev', ...flags] = process.argv.slice(2);
const grades = await playToldCorpus(name);
console.log(summaryLine(name, summarise(grades)));
if (flags.includes('--turns')) {
  for (const grade of grades) {
    const problems = [
      !grade.skillRight ? `skill (want ${grade.turn.skill})` : '',
      grade.skillRight && !grade.scriptRight ? `script (want ${grade.turn.script})` : '',
      grade.wrongFields.length > 0 ? `fields ${grade.wrongFields.join('; ')}` : '',
      !grade.factsTold ? `facts ${JSON.stringify(grade.turn.facts)}` : '',
      !grade.resultTold ? 'result not told' : '',
      grade.voiceErrors.length > 0 ? `voice ${grade.voiceErrors.join(', ')}` : '',
      grade.falseSuccess ? 'FALSE SUCCESS' : '',
    ].filter(Boolean);
    if (problems.length === 0) continue;
    console.log(
      `\n✗ [${grade.turn.story}] ${grade.turn.input}\n  ran: ${grade.tools.map((tool) => `${tool.skill}/${tool.script} ${JSON.stringify(tool.input)} ${tool.state}`).join(' | ')}\n  ${problems.join('\n  ')}\n  → ${grade.narration}`,
    );
  }
}
