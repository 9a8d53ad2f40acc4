// Typed bridge to the extension for the Configure Skill form: posts FromConfigForm, receives ToConfigForm, keeps UI state; no rendering here.
import type { FromConfigForm, ToConfigForm } from '../../protocol/configFormMessages.js';
import { WebviewMessaging } from '../common/webviewMessaging.js';

export class FormMessaging extends WebviewMessaging<FromConfigForm, ToConfigForm> {
  constructor() {
    super('Configure Skill form');
  }
}
