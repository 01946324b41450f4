// Register the elements BEFORE React renders them: React 19 sets a prop as a property only when the
// element already has that property (otherwise it writes an attribute).
import 'stagedoor/define';
// JSX typing of <seat-picker>, <performance-calendar> & co. (IntrinsicElements): autocomplete, and
// errors for wrong property names, wrong values and wrong event handlers.
import type {} from 'stagedoor/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import './app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
