/** The organiser console's entry: its own bundle at /admin/, nothing of it reaches the public site. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app';
import { startI18n } from './i18n';
import { useConsole } from './store';
import './shell/console.css';
import './lib/tags.css';

const root = document.getElementById('root');
if (root) {
  void startI18n(useConsole.getState().language).then(() => {
    createRoot(root).render(
      <StrictMode>
        <ConsoleApp />
      </StrictMode>,
    );
  });
}
