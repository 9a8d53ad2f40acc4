// Public API of plan validation: validate a plan's text or value, diagnostics, JSON pointer/location helpers, tool-path policy.
export {
  DiagnosticCode,
  comparePositions,
  toReportDiagnostic,
  type Diagnostic,
  type DiagnosticSeverity,
  type RelatedInformation,
  type ReportDiagnostic,
  type SourcePosition,
  type SourceRange,
} from './diagnostic.js';
export {
  JsonDocument,
  MAX_NESTING_DEPTH,
  computeLineStarts,
  parseJsonDocument,
  parsePointer,
  pointerFromPath,
  positionAt,
  valueAtPointer,
  type JsonExtension,
  type JsonSyntaxProblem,
  type PointerTarget,
} from './jsonLocator.js';
export {
  resolveToolPath,
  skillNameOfPath,
  type ToolPathFailureCode,
  type ToolPathPolicy,
  type ToolPathResolution,
} from './toolPathPolicy.js';
export { validatePlanText, validatePlanValue, type PlanValidationOptions, type PlanValidationResult } from './validatePlan.js';
export { closestMatch, editDistance } from './closestMatch.js';
