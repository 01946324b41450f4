import { css } from 'lit';
import { token } from '../shared.styles.ts';

export const eventListStyles = css`
  :host {
    --_card-min: ${token('card-min-width')};
    --_ratio: ${token('card-image-ratio')};
    --_bone: ${token('skeleton')};
    container-type: inline-size;
  }
  p {
    margin: 0;
  }
  .filter {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-block-end: var(--_gap);
  }
  .cards {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(var(--_card-min), 100%), 1fr));
    gap: var(--_gap);
  }
  .card {
    position: relative;
    display: flex;
    flex-direction: column;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    overflow: hidden;
  }
  .card:focus-within {
    outline: var(--_focus);
    outline-offset: 2px;
  }
  .card[part~='selected'] {
    border-color: var(--_accent);
    box-shadow: 0 0 0 1px var(--_accent);
  }
  .media {
    aspect-ratio: var(--_ratio);
    background: var(--_bone);
    flex: none;
  }
  .media img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  .body {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    padding: 0.75rem;
    /* Room for the clamped lines below (name 2, tag line 2, running time 2, price, offer, age):
       skeletons and loaded cards are the same size, so nothing jumps when the list arrives. */
    min-height: ${token('card-body-height')};
    line-height: 1.4;
  }
  .tag-line,
  .card .meta[part='running-time'] {
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .name {
    margin: 0;
    font-size: 1.1rem;
    line-height: 1.3;
  }
  .card-button {
    all: unset;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
    cursor: pointer;
    color: var(--_accent);
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .card-button:focus-visible {
    outline: none;
  }
  .card-button::after {
    content: '';
    position: absolute;
    inset: 0;
  }
  .card-button:hover {
    text-decoration: underline;
  }
  .tag-line {
    overflow-wrap: anywhere;
  }
  .meta {
    color: var(--_muted);
    font-size: 0.9rem;
    overflow-wrap: anywhere;
  }
  .price {
    font-weight: 600;
  }
  .offer {
    color: var(--_success);
    font-size: 0.95rem;
  }
  .badge {
    display: inline-block;
    padding: 0 0.4rem;
    margin-inline-end: 0.25rem;
    border-radius: 999px;
    border: 1px solid currentColor;
    font-size: 0.8rem;
    font-weight: 600;
  }
  .bone {
    display: block;
    background: var(--_bone);
    border-radius: 4px;
    animation: pulse 1.4s ease-in-out infinite;
  }
  .bone.title {
    height: 1.4rem;
    width: 70%;
  }
  .bone.line {
    height: 1rem;
    width: 90%;
  }
  .bone.short {
    width: 45%;
  }
  .skeleton .body {
    gap: 0.5rem;
  }
  @keyframes pulse {
    50% {
      opacity: 0.55;
    }
  }
  .empty {
    padding: 2rem 1rem;
    text-align: center;
    color: var(--_muted);
    border: 1px dashed var(--_border);
    border-radius: var(--_radius);
  }
  .detail {
    display: flex;
    flex-direction: column;
    gap: var(--_gap);
    line-height: 1.5;
  }
  .back,
  .dates {
    align-self: flex-start;
  }
  .detail-title {
    margin: 0;
    font-size: 1.6rem;
    line-height: 1.25;
    overflow-wrap: anywhere;
  }
  .detail-title:focus {
    outline: none;
  }
  .detail-title:focus-visible {
    outline: var(--_focus);
  }
  .detail-media {
    display: block;
    width: 100%;
    max-height: 24rem;
    aspect-ratio: var(--_ratio);
    object-fit: cover;
    border-radius: var(--_radius);
  }
  .facts-line {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    align-items: baseline;
  }
  .notice {
    padding: 0.75rem;
    border-inline-start: 4px solid var(--_warning);
    background: color-mix(in srgb, var(--_warning) 8%, transparent);
  }
  .rich {
    overflow-wrap: anywhere;
  }
  .rich :is(p, ul, ol) {
    margin: 0 0 0.5rem;
  }
  .rich img {
    max-width: 100%;
    height: auto;
  }
  a {
    color: var(--_accent);
  }
  .facts {
    margin: 0;
    display: grid;
    gap: 0.25rem;
  }
  .facts dt {
    font-weight: 600;
  }
  .facts dd {
    margin: 0 0 0.25rem;
  }
  .section {
    border-top: 1px solid var(--_border);
    padding-top: var(--_gap);
  }
  .section h3 {
    margin: 0 0 0.5rem;
    font-size: 1.2rem;
  }
  .cast {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(16rem, 100%), 1fr));
    gap: var(--_gap);
  }
  .cast-member {
    display: flex;
    gap: 0.75rem;
    align-items: flex-start;
  }
  .cast-member img {
    width: 4rem;
    height: 4rem;
    object-fit: cover;
    border-radius: 50%;
    flex: none;
  }
  .cast-name {
    font-weight: 600;
  }
  .links {
    list-style: none;
    margin: 0.25rem 0 0;
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
  }
  .reviews {
    list-style: none;
    margin: 0.5rem 0;
    padding: 0;
    display: grid;
    gap: 0.75rem;
  }
  .review-content {
    overflow-wrap: anywhere;
    white-space: pre-line;
  }
  .stars {
    color: var(--_warning);
    letter-spacing: 0.05em;
    margin-inline-end: 0.5rem;
  }
  .pager {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  @media (prefers-reduced-motion: reduce) {
    .bone {
      animation: none;
    }
  }
  @media (forced-colors: active) {
    .card[part~='selected'] {
      border: 2px solid Highlight;
    }
    .bone {
      background: GrayText;
    }
    .card-button {
      color: LinkText;
    }
  }
`;
